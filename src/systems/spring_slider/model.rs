//! The spring–slider as a [`Model`]: state `[u, ẋ, law states…, W_f, W_in, W_c]` with
//! `u = x − x_lp` (see the module documentation for the equations).

use super::{SpringSliderParams, Start};
use crate::integrate::{Column, Model, Role, SimError};
use crate::laws::{Contact, FrictionLaw, Law, LawSwitch, NormalLoadNoise};
use crate::systems::contacts::check_same_structure;
use crate::systems::energy_columns::energy_columns;
use crate::systems::one_block::{BlockEnergy, OneContact};
use crate::systems::{ConfigOf, Restart, SystemSpec};

/// Quadrature components at the end of the state.
const N_WORK: usize = 3;

/// The spring–slider model.
#[derive(Clone, Debug)]
pub struct SpringSlider {
    params: SpringSliderParams,
    schedule: super::Schedule,
    /// The slider's contact: its law and events.
    contact: OneContact,
    noise: Option<NormalLoadNoise>,
    /// Offset `u` at the start (the slider's displacement `x` is counted from it) [m].
    initial_offset_m: f64,
    /// The energy account (its E₀ restarts with each live change).
    energy: BlockEnergy,
}

impl SpringSlider {
    /// The rig with the given law and optional load noise.
    pub fn new(params: SpringSliderParams, law: Law, noise: Option<NormalLoadNoise>) -> Self {
        let start_speed = match params.start {
            Start::SteadySliding => params.speed_mps,
            Start::Rest => 0.0,
        };
        Self {
            schedule: params.schedule(),
            params,
            contact: OneContact::new(law, start_speed),
            noise,
            initial_offset_m: 0.0,
            energy: BlockEnergy::default(),
        }
    }

    /// Parameters.
    pub fn params(&self) -> &SpringSliderParams {
        &self.params
    }

    /// The friction law (with its current mode).
    pub fn law(&self) -> &Law {
        self.contact.law()
    }

    /// Initial state: steady sliding at `v₁` (spring at the steady friction, law states at
    /// their steady values where the law has them) or rest.
    pub fn initial_state(&self) -> Vec<f64> {
        let p = &self.params;
        let mut y = vec![0.0; self.dim()];
        let law = self.contact.law();
        let states = &mut y[2..2 + self.contact.n_states()];
        law.initial_states(states);
        if p.start == Start::SteadySliding {
            let v = p.speed_mps;
            law.steady_states(v, p.normal_load_n, states);
            // m·ẍ = −k·u − c·v + F_ss = 0.
            let f = law.steady_force(v, p.normal_load_n, 1.0);
            y[0] = (f - p.damping_ns_per_m * v) / p.stiffness_n_per_m;
            y[1] = v;
        }
        y
    }

    /// Load factor `N(t)/N` of the noise (1 without it).
    fn load_factor(&self, t: f64) -> f64 {
        self.noise.as_ref().map_or(1.0, |n| n.factor(t))
    }

    /// Contact kinematics at `(t, y)`: the surface is fixed, so `v_rel = ẋ`, and the force that
    /// holds the slider still is `F_hold = k·u + c·ẋ`.
    #[inline]
    fn contact(&self, t: f64, y: &[f64]) -> Contact {
        let p = &self.params;
        let factor = self.load_factor(t);
        Contact {
            t_s: t,
            v_rel_mps: y[1],
            normal_load_n: p.normal_load_n * factor,
            load_ratio: factor,
            f_hold_n: p.stiffness_n_per_m * y[0] + p.damping_ns_per_m * y[1],
        }
    }

    /// Friction force at `(t, y)` [N].
    pub fn friction_force_n(&self, t: f64, y: &[f64]) -> f64 {
        self.contact.force_n(&self.contact(t, y), y)
    }

    /// Whether the slider sticks: the law's exact mode when it has one, else
    /// `|ẋ| < 10⁻³·v₁` (MODELS §4.8).
    pub fn is_stuck(&self, t: f64, y: &[f64]) -> bool {
        let c = self.contact(t, y);
        self.law().stuck_at(&c).unwrap_or_else(|| {
            c.v_rel_mps.abs()
                < crate::systems::belt_block::STICK_VELOCITY_FRACTION
                    * self.params.speed_mps.abs().max(1e-300)
        })
    }

    /// E₀ such that the balance error is zero now.
    fn rebase_energy(&mut self, y: &[f64]) {
        let p = &self.params;
        let works = 2 + self.contact.n_states();
        self.energy
            .rebase(y, works, p.mass_kg, p.stiffness_n_per_m);
    }

    fn apply_switch(switch: LawSwitch, y: &mut [f64]) {
        if switch == LawSwitch::Stick {
            y[1] = 0.0;
        }
    }
}

impl Model for SpringSlider {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2 + self.contact.n_states() + N_WORK
    }

    fn n_quadratures(&self) -> usize {
        N_WORK
    }

    fn state_names(&self) -> Vec<String> {
        let mut v = vec!["u".to_string(), "v".to_string()];
        v.extend(self.law().state_columns().into_iter().map(|c| c.name));
        v.extend(["w_friction", "w_load_point", "w_damping"].map(String::from));
        v
    }

    /// The offset at the scale of the steady stretch `μ·N/k` (at least 1 nm), the velocity at
    /// the load point's.
    fn state_scales(&self, scales: &mut [f64]) {
        let p = &self.params;
        scales[0] = (0.1 * p.normal_load_n / p.stiffness_n_per_m).max(1e-9);
        scales[1] = p.speed_mps.max(p.step_speed_mps);
        let n = self.contact.n_states();
        self.law().state_scales(&mut scales[2..2 + n]);
        for s in &mut scales[2 + n..] {
            *s = 1.0;
        }
    }

    fn is_autonomous(&self) -> bool {
        self.noise.is_none() && self.schedule.programme == super::Programme::Steady
    }

    fn time_scale_s(&self) -> f64 {
        1.0 / self.params.omega_rad_per_s()
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let mut next = self.schedule.next_switch_s(t);
        if let Some(noise) = &self.noise {
            let dt = noise.params.grid_step_s;
            next = next.min(((t / dt).floor() + 1.0) * dt);
        }
        next
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.start(&c, y, false);
        Self::apply_switch(switch, y);
        let (x_lp, _) = self.schedule.at(t);
        self.initial_offset_m = y[0] + x_lp;
        self.rebase_energy(y);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = SpringSliderParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        spec.check_contacts()?;
        check_same_structure(std::slice::from_ref(self.law()), &spec.laws)?;
        if self.noise.as_ref().map(|n| &n.params) != spec.noise.as_ref() {
            return Err(Restart::Changed("the load noise changed".into()));
        }
        self.contact.law_mut().set_params(&spec.laws[0]);
        self.params = params.clone();
        self.schedule = params.schedule();
        Ok(())
    }

    /// A stuck slider stands still.
    fn project(&self, _t: f64, y: &mut [f64]) {
        if self.law().stuck() == Some(true) {
            y[1] = 0.0;
        }
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.start(&c, y, true);
        Self::apply_switch(switch, y);
        self.rebase_energy(y);
        Ok(())
    }

    /// `u̇ = ẋ − v_lp`, `ẍ = (F_f − k·u − c·ẋ)/m`, law states, and the work rates `F_f·ẋ`,
    /// `−k·u·v_lp`, `c·ẋ²`.
    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let c = self.contact(t, y);
        let n = self.contact.n_states();
        let f = self.law().eval(&c, &y[2..2 + n], &mut dy[2..2 + n]);
        let (_, v_lp) = self.schedule.at(t);
        let v = y[1];
        dy[0] = v - v_lp;
        dy[1] = (f - c.f_hold_n) / p.mass_kg;
        let q = 2 + n;
        dy[q] = f * v;
        dy[q + 1] = -p.stiffness_n_per_m * y[0] * v_lp;
        dy[q + 2] = p.damping_ns_per_m * v * v;
    }

    /// Rows `u, ẋ, law states, W_f, W_in, W_c`; columns `u, ẋ, law states`. With
    /// `F_hold = k·u + c·ẋ`: `∂ẍ/∂u = (∂F/∂F_hold − 1)·k/m`,
    /// `∂ẍ/∂ẋ = (∂F/∂v + (∂F/∂F_hold − 1)·c)/m`.
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        let (k, cd) = (p.stiffness_n_per_m, p.damping_ns_per_m);
        let c = self.contact(t, y);
        let Some(slopes) = self.contact.jacobian(&c, y, k, cd, p.mass_kg, jac) else {
            return false;
        };
        let n = self.contact.n_states();
        let nd = 2 + n;
        // Work integrals: Ẇ_f = F·ẋ, Ẇ_in = −k·u·v_lp, Ẇ_c = c·ẋ².
        let f = self.friction_force_n(t, y);
        let v = y[1];
        let (_, v_lp) = self.schedule.at(t);
        let q = nd * nd;
        jac[q] = slopes.df_dq * v;
        jac[q + 1] = slopes.df_dv * v + f;
        jac[q + nd] = -k * v_lp;
        jac[q + 2 * nd + 1] = 2.0 * cd * v;
        for jj in 0..n {
            jac[q + 2 + jj] = slopes.df_ds[jj] * v;
        }
        true
    }

    fn n_events(&self) -> usize {
        self.contact.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let ne = self.contact.n_law_events();
        if ne > 0 {
            let c = self.contact(t, y);
            self.law()
                .events(&c, self.contact.states(y), &mut g[..ne]);
        }
        if let Some(r) = self.contact.reversal() {
            g[ne] = r.guard(y[1]);
        }
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
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

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m").role(Role::Position(0)),
            Column::new("v", "m/s").role(Role::Velocity(0)),
        ];
        cols.extend(OneContact::contact_columns());
        cols.extend([
            Column::new("offset", "m").symbol("x − x_lp"),
            Column::new("x_lp", "m")
                .role(Role::DriverPosition)
                .symbol("x_lp"),
            Column::new("v_lp", "m/s")
                .role(Role::DriverVelocity)
                .symbol("v_lp"),
        ]);
        cols.extend(self.contact.state_columns());
        cols.extend(energy_columns(1));
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let p = &self.params;
        let n = self.contact.n_states();
        let c = self.contact(t, y);
        let (x_lp, v_lp) = self.schedule.at(t);
        row[0] = x_lp + y[0] - self.initial_offset_m;
        row[1] = y[1];
        let spring = -p.stiffness_n_per_m * y[0];
        let stuck = self.is_stuck(t, y);
        self.contact
            .write_contact(&c, y, spring, stuck, &mut row[2..7]);
        row[7] = y[0];
        row[8] = x_lp;
        row[9] = v_lp;
        row[10..10 + n].copy_from_slice(self.contact.states(y));
        let works = 2 + n;
        self.energy.write(
            y,
            works,
            p.mass_kg,
            p.stiffness_n_per_m,
            &mut row[10 + n..],
        );
    }

    /// As the bench's: first where an exact stick begins (the slider stops), then a section
    /// every oscillation crosses (the slider overtakes the load point), which the analyses
    /// take for laws without an exact stick — rate-and-state stick–slip creeps between slips
    /// without ever stopping.
    fn section_names(&self) -> Vec<String> {
        vec![
            "stopping (ẋ = 0, falling)".into(),
            "overtaking the load point (ẋ = v_lp, rising)".into(),
        ]
    }

    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        let (_, v_lp) = self.schedule.at(t);
        s[0] = -y[1];
        s[1] = y[1] - v_lp;
    }

    fn prefers_implicit(&self) -> bool {
        self.law().is_stiff()
    }
}
