//! The break-away test as a [`Model`]: a free mass on the contact pushed by force ramps of
//! growing rate. State `[x, ẋ, law states…]`:
//! ```text
//! m·ẍ = F_app + F_f(ẋ, N, state),    F_app = Ḟ_k·(t − t_k)
//! ```
//! The holding force the law sees is `F_hold = −F_app` (the surface is fixed), so laws
//! set-valued at rest stick exactly until `F_app` reaches their static level. Ramp `k` ends
//! when the mass has slipped `x_stop` since it began (an event); the load then comes off, the
//! mass stops and the law starts afresh from its initial state, and ramp `k + 1` begins.
//!
//! Energy: `W_f = ∫F_f·ẋ dt`, the rig's input `W_in = ∫F_app·ẋ dt` less the kinetic energy it
//! takes out when it stops the mass, so `½mẋ² = W_in + W_f` checks every run.

use super::Programme;
use crate::integrate::{Column, Model, SimError};
use crate::laws::{Contact, FrictionLaw, Law, LawSwitch};
use crate::systems::energy_columns::energy_columns;
use crate::systems::one_block::OneContact;

/// The break-away rig.
#[derive(Clone, Debug)]
pub struct ForceRamp {
    contact: OneContact,
    programme: Programme,
    normal_load_n: f64,
    mass_kg: f64,
    /// The running ramp (`programme.ramps` once all are done: unloaded).
    ramp: usize,
    /// Start time `t_k` of the running ramp [s].
    ramp_start_s: f64,
    /// Position `x_k` where the running ramp began [m].
    ramp_origin_m: f64,
    /// The force the contact holds at the slowest sliding, or the load if larger [N]: the
    /// scale of the break-away force, for the step bound.
    force_scale_n: f64,
}

impl ForceRamp {
    /// The rig with `law`, pushing `mass_kg` under `normal_load_n`.
    pub fn new(law: Law, programme: Programme, normal_load_n: f64, mass_kg: f64) -> Self {
        let held = law.steady_force(1e-6, normal_load_n, 1.0).abs();
        let force_scale_n = if held.is_finite() {
            held.max(normal_load_n)
        } else {
            normal_load_n
        };
        Self {
            force_scale_n,
            contact: OneContact::new(law, 0.0),
            programme,
            normal_load_n,
            mass_kg,
            ramp: 0,
            ramp_start_s: 0.0,
            ramp_origin_m: 0.0,
        }
    }

    /// At rest at `x = 0`, the law's initial states.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.dim()];
        let n = self.contact.n_states();
        self.contact.law().initial_states(&mut y[2..2 + n]);
        y
    }

    /// Force of the ramp at `t` [N] (0 after the last ramp).
    pub fn applied_force_n(&self, t: f64) -> f64 {
        if self.ramp >= self.programme.ramps {
            return 0.0;
        }
        self.programme.ramp_rate_n_per_s(self.ramp) * (t - self.ramp_start_s).max(0.0)
    }

    fn contact(&self, t: f64, y: &[f64]) -> Contact {
        Contact {
            t_s: t,
            v_rel_mps: y[1],
            normal_load_n: self.normal_load_n,
            load_ratio: 1.0,
            f_hold_n: -self.applied_force_n(t),
        }
    }

    fn apply_switch(switch: LawSwitch, y: &mut [f64]) {
        if switch == LawSwitch::Stick {
            y[1] = 0.0;
        }
    }

    /// Index of the ramp-end event (after the contact's).
    fn ramp_event(&self) -> usize {
        self.contact.n_events()
    }
}

impl Model for ForceRamp {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2 + self.contact.n_states() + 2
    }

    fn n_quadratures(&self) -> usize {
        2
    }

    fn state_names(&self) -> Vec<String> {
        let mut v = vec!["x".to_string(), "v".to_string()];
        v.extend(self.contact.law().state_columns().into_iter().map(|c| c.name));
        v.extend(["w_friction".to_string(), "w_input".to_string()]);
        v
    }

    /// Positions at a tenth of the stopping slip, velocities at that slip per second.
    fn state_scales(&self, scales: &mut [f64]) {
        scales[0] = 0.1 * self.programme.stop_slip_m;
        scales[1] = 0.1 * self.programme.stop_slip_m;
        let n = self.contact.n_states();
        self.contact.law().state_scales(&mut scales[2..2 + n]);
        scales[2 + n] = 1.0;
        scales[3 + n] = 1.0;
    }

    /// A step never spans more than a hundredth of the time the running ramp takes to reach
    /// the force the contact can hold (or the normal load), so the break-away is not stepped
    /// over.
    fn max_step_s(&self, _t: f64) -> f64 {
        if self.ramp >= self.programme.ramps {
            return f64::INFINITY;
        }
        0.01 * self.force_scale_n / self.programme.ramp_rate_n_per_s(self.ramp)
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.start(&c, y, false);
        Self::apply_switch(switch, y);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let c = self.contact(t, y);
        let n = self.contact.n_states();
        let f = self.contact.law().eval(&c, &y[2..2 + n], &mut dy[2..2 + n]);
        dy[0] = y[1];
        dy[1] = (f - c.f_hold_n) / self.mass_kg;
        dy[2 + n] = f * y[1];
        dy[3 + n] = -c.f_hold_n * y[1];
    }

    fn n_events(&self) -> usize {
        self.contact.n_events() + 1
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let ne = self.contact.n_law_events();
        let c = self.contact(t, y);
        if ne > 0 {
            self.contact
                .law()
                .events(&c, self.contact.states(y), &mut g[..ne]);
        }
        if let Some(r) = self.contact.reversal() {
            g[ne] = r.guard(y[1]);
        }
        g[self.ramp_event()] = if self.ramp < self.programme.ramps {
            self.programme.stop_slip_m - (y[0] - self.ramp_origin_m)
        } else {
            1.0
        };
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        if index == self.ramp_event() {
            // Unload, stop, renew the contact; the next ramp starts here.
            self.ramp += 1;
            self.ramp_start_s = t;
            self.ramp_origin_m = y[0];
            let n = self.contact.n_states();
            y[3 + n] -= 0.5 * self.mass_kg * y[1] * y[1];
            y[1] = 0.0;
            self.contact.law().initial_states(&mut y[2..2 + n]);
            let c = self.contact(t, y);
            let switch = self.contact.start(&c, y, false);
            Self::apply_switch(switch, y);
            return Ok(());
        }
        let c = self.contact(t, y);
        let switch = self.contact.apply_event(index, &c, y);
        Self::apply_switch(switch, y);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        if !self.contact.has_after_step() {
            return false;
        }
        let c = self.contact(t, y);
        self.contact.after_step(&c, y)
    }

    /// A stuck mass stands still.
    fn project(&self, _t: f64, y: &mut [f64]) {
        if self.contact.law().stuck() == Some(true) {
            y[1] = 0.0;
        }
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = super::sample_columns(true);
        cols.extend(self.contact.state_columns());
        cols.extend(energy_columns(1));
        cols
    }

    /// `x, v, v_rel, F_f, F_app, stick, N, law states`, then `e_kin`, `e_spring = 0`, `W_f`,
    /// `W_in`, no damping, and the balance error `e_kin − W_in − W_f`.
    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let c = self.contact(t, y);
        let n = self.contact.n_states();
        row[0] = y[0];
        row[1] = y[1];
        row[2] = y[1];
        row[3] = self.contact.force_n(&c, y);
        row[4] = self.applied_force_n(t);
        let stuck = self.contact.law().stuck_at(&c).unwrap_or(false);
        row[5] = f64::from(u8::from(stuck));
        row[6] = self.normal_load_n;
        row[7..7 + n].copy_from_slice(self.contact.states(y));
        let e_kin = 0.5 * self.mass_kg * y[1] * y[1];
        let (w_f, w_in) = (y[2 + n], y[3 + n]);
        row[7 + n..13 + n].copy_from_slice(&[e_kin, 0.0, w_f, w_in, 0.0, e_kin - w_in - w_f]);
    }

    /// Where the sample starts to slide forward in a ramp (break-away).
    fn section_names(&self) -> Vec<String> {
        vec!["starting to slide (ẋ = 0, rising)".into()]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = y[1];
    }

    fn prefers_implicit(&self) -> bool {
        self.contact.law().is_stiff()
    }
}
