//! The kinematic tests as a [`Model`]: state `[x, law states…, W_f]`, `ẋ = v(t)` from the
//! [`Programme`], the friction force read from the law at each output. The energy account:
//! friction work `W_f = ∫F_f·v dt` (the law's own elastic energy, a bristle's or a
//! junction's, counted in it); the drive puts in `−W_f`; nothing moves with inertia.

use super::Programme;
use crate::integrate::{Column, Model, Role, SimError};
use crate::systems::energy_columns::energy_columns;
use crate::laws::{Contact, FrictionLaw, Law};
use crate::rig::DrivenLaw;

/// A law driven through a kinematic test.
#[derive(Clone, Debug)]
pub struct KinematicRig {
    driven: DrivenLaw,
    programme: Programme,
    normal_load_n: f64,
    /// Start of the piece of the programme the run is in: held to the piece's end, so the
    /// step that lands on a jump of the imposed speed does not see it.
    piece_start_s: f64,
}

impl KinematicRig {
    /// `law` under `programme` at constant normal load.
    pub fn new(law: Law, programme: Programme, normal_load_n: f64) -> Self {
        Self {
            driven: DrivenLaw::new(law, programme.velocity_mps(0.0)),
            programme,
            normal_load_n,
            piece_start_s: 0.0,
        }
    }

    /// `x = 0`, the law's initial states, no work done.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = self.driven.initial_state();
        y.push(0.0);
        y
    }

    /// The driven part of the state (without the work integral).
    fn n_driven(&self) -> usize {
        self.driven.dim()
    }

    fn contact(&self, t: f64) -> Contact {
        let v = self
            .programme
            .velocity_in_piece_mps(t, self.piece_start_s);
        Contact::kinematic(t, v, self.normal_load_n)
    }
}

impl Model for KinematicRig {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        self.driven.dim() + 1
    }

    fn n_quadratures(&self) -> usize {
        1
    }

    fn state_names(&self) -> Vec<String> {
        let mut v = self.driven.state_names();
        v.push("w_friction".into());
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let n = self.n_driven();
        self.driven.state_scales(&mut scales[..n]);
        scales[n] = 1.0;
        // The pre-sliding test moves micrometres.
        scales[0] = scales[0].min(self.programme.amplitude_m.max(1e-12));
    }

    fn max_step_s(&self, t: f64) -> f64 {
        self.programme.max_step_s(t)
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        self.programme.next_switch_s(t)
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.piece_start_s = self.programme.piece_start_s(t);
        let c = self.contact(t);
        let n = self.n_driven();
        self.driven.initialize(&c, &mut y[..n])
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let c = self.contact(t);
        let n = self.n_driven();
        self.driven.rhs(&c, &y[..n], &mut dy[..n]);
        dy[n] = self.driven.force_n(&c, &y[..n]) * c.v_rel_mps;
    }

    fn n_events(&self) -> usize {
        self.driven.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let n = self.n_driven();
        self.driven.events(&self.contact(t), &y[..n], g);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        let n = self.n_driven();
        self.driven.apply_event(index, &c, &mut y[..n]);
        Ok(())
    }

    /// Moves on to the next piece of the programme once a step has landed on its start (the
    /// integrator then restarts with the new speed).
    /// A slides test renews the contact there: the sample starts again at `x = 0` with the
    /// law's initial states (the work account goes on).
    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        let piece = self.programme.piece_start_s(t);
        let moved = piece != self.piece_start_s;
        self.piece_start_s = piece;
        let c = self.contact(t);
        let n = self.n_driven();
        if moved && self.programme.renews_contact_at(piece) {
            let fresh = self.driven.initial_state();
            y[..n].copy_from_slice(&fresh);
            self.driven.initialize(&c, &mut y[..n]).ok();
            return true;
        }
        self.driven.after_step(&c, &mut y[..n]) || moved
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.piece_start_s = self.programme.piece_start_s(t);
        let c = self.contact(t);
        let n = self.n_driven();
        self.driven.initialize(&c, &mut y[..n])
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = super::sample_columns(false);
        cols.extend(
            self.driven
                .law()
                .state_columns()
                .into_iter()
                .enumerate()
                .map(|(index, c)| c.role(Role::LawState { contact: 0, index })),
        );
        cols.extend(energy_columns(1));
        cols
    }

    /// `x, v, v_rel, F_f, stick (0), N, law states`, then `e_kin = 0`, `e_spring = 0`, `W_f`,
    /// the drive's `−W_f`, no damping, balance error 0.
    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let c = self.contact(t);
        let n = self.n_driven();
        let n_law = self.driven.n_law();
        row[0] = y[0];
        row[1] = c.v_rel_mps;
        row[2] = c.v_rel_mps;
        row[3] = self.driven.force_n(&c, &y[..n]);
        row[4] = 0.0;
        row[5] = self.normal_load_n;
        row[6..6 + n_law].copy_from_slice(&y[1..n]);
        let w_f = y[n];
        row[6 + n_law..12 + n_law].copy_from_slice(&[0.0, 0.0, w_f, -w_f, 0.0, 0.0]);
    }

    /// Where the imposed motion turns back (forward to backward): the reversal points of the
    /// pre-sliding loops, the pass through zero of the Stribeck ladder.
    fn section_names(&self) -> Vec<String> {
        vec!["turning back (v = 0, falling)".into()]
    }

    fn sections(&self, t: f64, _y: &[f64], s: &mut [f64]) {
        s[0] = -self.contact(t).v_rel_mps;
    }

    fn prefers_implicit(&self) -> bool {
        self.driven.prefers_implicit()
    }
}
