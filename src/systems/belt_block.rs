//! Belt–block oscillator: the S1 friction test bench, a simplified Girling duo-servo brake
//! (MODELS §3.1).
//! ```text
//! m·ẍ + c·ẋ + k·x = F_f(v_rel, N(t), state),    v_rel = ẋ − v_b,    v_b = 2π·R_w·n/60
//! N(t) = N₀·(1 + a_j·w(t mod T_b))·noise(t),    T_b = L_b/v_b
//! ```
//! State `[x, ẋ, law states…, W_f, W_b, W_c]`; the last three are work integrals
//! `W_f = ∫F_f·v_rel dt` (friction on the relative motion, ≤ 0 for static laws),
//! `W_b = ∫F_f·v_b dt` (input by the belt) and `W_c = ∫c·ẋ² dt` (damper), so that
//! `E_kin + E_spring = E₀ + W_b + W_f − W_c` checks every run.

use super::joint::BeltJoint;
use crate::integrate::rk4_batch::{BatchRhs, Rk4Batch};
use super::energy_columns::energy_columns;
use super::contacts::check_same_structure;
use super::one_block::{BlockEnergy, OneContact};
use super::{
    Anchor, Built, ConfigOf, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Restart,
    Surface, SystemKind, SystemSpec,
};
use crate::integrate::{Column, JacobianStructure, Model, Role, SimError, SparsityPattern};
use crate::laws::{
    Contact, FrictionLaw, Law, LawConfig, LawSwitch, LawVisitor, NoiseParams, NormalLoadNoise,
};

/// Equation of motion shown in the GUI.
pub const EQUATION: &str = "m·ẍ + c·ẋ + k·x = F_f(ẋ − v_b, N(t)),  v_b = 2π·R_w·n/60";

crate::param_struct! {
    /// Belt–block parameters (defaults: MODELS §3.1; S1 gives no values).
    pub struct BeltBlockParams {
        /// Mass of the block.
        mass_kg: "mass" = 1.0, "Block mass", "m", "kg", [0.01, 100.0], Log;
        /// Total stiffness of the holding spring(s).
        stiffness_n_per_m: "stiffness" = 200.0, "Spring stiffness", "k", "N/m", [0.1, 1e6], Log;
        /// Viscous damping of the block's suspension.
        damping_ns_per_m: "damping" = 0.5, "Damping", "c", "N·s/m", [0.0, 100.0], Linear;
        /// Nominal normal load pressing the block on the belt.
        normal_load_n: "normal_load" = 9.81, "Normal load", "N₀", "N", [0.0, 1000.0], Linear;
        /// Radius of the wheel driving the belt.
        wheel_radius_m: "wheel_radius" = 0.05, "Wheel radius", "R_w", "m", [0.005, 1.0], Linear;
        /// Wheel speed (S1 tests: 4.47, 10.04, 14.87, 19.36 rpm).
        wheel_rpm: "wheel_rpm" = 19.36, "Wheel speed", "n", "rpm", [0.0, 300.0], Linear;
        /// Length of the belt loop (sets the belt-turn period L_b/v_b).
        belt_length_m: "belt_length" = 1.0, "Belt length", "L_b", "m", [0.05, 20.0], Linear;
        /// Relative normal-load bump when the belt joint passes (0 = no joint).
        joint_amplitude: "joint_amplitude" = 0.05, "Joint bump", "a_j", "", [0.0, 0.9], Linear;
        /// Length of the belt's overlapping joint.
        joint_length_m: "joint_length" = 0.02, "Joint length", "ℓ_j", "m", [0.0, 0.5], Linear;
        /// Initial spring extension of the block.
        initial_position_m: "initial_position" = 0.0, "Initial position", "x₀", "m", [-1.0, 1.0], Linear, restart;
        /// Initial block velocity relative to the belt (0: carried along by the belt).
        initial_slip_velocity_mps: "initial_slip_velocity" = 0.0, "Initial slip velocity", "v_rel,0", "m/s", [-10.0, 10.0], Linear, restart;
    }
    consistency = |p: &Self| crate::params::not_above(
        ("joint_length", "ℓ_j", p.joint_length_m),
        ("belt_length", "L_b", p.belt_length_m),
        "the joint is a part of the belt loop, so it cannot be longer than the belt",
    );
}

impl BeltBlockParams {
    /// Belt speed `v_b = 2π·R_w·n/60` [m/s].
    pub fn belt_speed_mps(&self) -> f64 {
        std::f64::consts::TAU * self.wheel_radius_m * self.wheel_rpm / 60.0
    }

    /// Belt-turn period `T_b = L_b/v_b` [s] (∞ when the belt stands still).
    pub fn belt_period_s(&self) -> f64 {
        self.belt_length_m / self.belt_speed_mps()
    }

    /// Natural angular frequency `√(k/m)` [rad/s].
    pub fn omega_rad_per_s(&self) -> f64 {
        (self.stiffness_n_per_m / self.mass_kg).sqrt()
    }
}

impl SystemKind for BeltBlockParams {
    const NAME: &'static str = "Belt–block test bench";
    const EQUATION: &'static str = EQUATION;

    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        Some(self.normal_load_n)
    }

    fn n_contacts(&self) -> usize {
        1
    }

    fn layout(&self) -> Layout {
        Layout {
            scene: None,
            dofs: vec![Dof {
                name: "block".into(),
                symbol: "x".into(),
                unit: "m".into(),
                mass: self.mass_kg,
            }],
            contacts: vec![ContactInfo {
                name: "block on the belt".into(),
                dof: 0,
                surface: Surface::Belt,
            }],
            links: vec![Link {
                kind: LinkKind::SpringDamper,
                a: Anchor::Ground,
                b: Anchor::Dof(0),
                label: "k, c".into(),
            }],
            driver_speed_mps: Some(self.belt_speed_mps()),
            substrate: None,
        }
    }

    /// The belt-turn period when the belt joint is active.
    fn forcing_period_s(&self) -> Option<f64> {
        let active =
            self.joint_amplitude > 0.0 && self.joint_length_m > 0.0 && self.belt_speed_mps() > 0.0;
        active.then(|| self.belt_period_s())
    }

    /// The belt-turn period `L_b/v_b`, with or without the joint.
    fn drive_period_s(&self) -> Option<f64> {
        let p = self.belt_period_s();
        (p.is_finite() && p > 0.0).then_some(p)
    }

    fn derived(&self) -> Vec<Derived> {
        vec![
            Derived {
                label: "v_b",
                value: self.belt_speed_mps(),
                unit: "m/s",
            },
            Derived {
                label: "belt turn",
                value: self.belt_period_s(),
                unit: "s",
            },
            Derived {
                label: "f₀",
                value: self.omega_rad_per_s() / std::f64::consts::TAU,
                unit: "Hz",
            },
        ]
    }

    /// Steady sliding at the belt speed: with rate-and-state friction the critical stiffness
    /// ([`hopf_threshold`](crate::laws::rate_state_stability::hopf_threshold) at `V = v_b`);
    /// with a memoryless law whose characteristic falls at `v_b`, the critical damping
    /// `c_c = ∂F_ss/∂v_rel` at `v_rel = −v_b` (the linearisation `m·ẍ + (c − c_c)·ẋ + k·x = 0`
    /// loses its damping there, oscillating at `√(k/m)`).
    fn stability_boundaries(&self, laws: &[LawConfig]) -> Vec<super::StabilityBoundary> {
        let Some(config) = laws.first() else {
            return Vec::new();
        };
        let vb = self.belt_speed_mps();
        if vb.is_nan() || vb <= 0.0 {
            return Vec::new();
        }
        if let LawConfig::RateState(law) = config {
            return crate::laws::rate_state_stability::hopf_threshold(
                law,
                self.normal_load_n,
                self.mass_kg,
                self.damping_ns_per_m,
                vb,
            )
            .map(super::StabilityBoundary::stiffness)
            .into_iter()
            .collect();
        }
        let law = config.build();
        if law.n_states() > 0 {
            return Vec::new();
        }
        let h = 1e-6 * vb;
        let n = self.normal_load_n;
        let slope =
            (law.steady_force(-vb + h, n, 1.0) - law.steady_force(-vb - h, n, 1.0)) / (2.0 * h);
        if !(slope.is_finite() && slope > 0.0) {
            return Vec::new();
        }
        vec![super::StabilityBoundary {
            path: "system.damping".into(),
            symbol: "c_c",
            unit: "N·s/m",
            value: slope,
            unstable_below: true,
            frequency_rad_per_s: self.omega_rad_per_s(),
        }]
    }

    fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built {
        let law = laws.first().map(LawConfig::build).unwrap_or_else(|| LawConfig::default().build());
        let model = BeltBlock::new(self.clone(), law, noise.cloned().map(NormalLoadNoise::new));
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

/// Quadrature components at the end of the state.
const N_WORK: usize = 3;
/// Relative-velocity threshold, as a fraction of the belt speed, under which a law without an
/// exact stick mode counts as sticking (MODELS §4.8).
pub const STICK_VELOCITY_FRACTION: f64 = 1e-3;

/// Law states from which the bench declares a sparse Jacobian when they are independent of one
/// another ([`FrictionLaw::states_are_independent`]): below, the dense LU is as fast.
pub const SPARSE_FROM_LAW_STATES: usize = 16;

/// The belt–block model.
#[derive(Clone, Debug)]
pub struct BeltBlock {
    params: BeltBlockParams,
    /// The block's contact: its law and events.
    contact: OneContact,
    noise: Option<NormalLoadNoise>,
    joint: Option<BeltJoint>,
    belt_speed_mps: f64,
    inv_mass: f64,
    /// The energy account (its E₀ restarts with each live change).
    energy: BlockEnergy,
}

impl BeltBlock {
    /// Model of the bench with the given law and optional load noise.
    pub fn new(params: BeltBlockParams, law: Law, noise: Option<NormalLoadNoise>) -> Self {
        let belt_speed_mps = params.belt_speed_mps();
        let joint = BeltJoint::new(
            params.joint_amplitude,
            params.belt_length_m,
            params.joint_length_m,
            belt_speed_mps,
        );
        let contact = OneContact::new(law, params.initial_slip_velocity_mps);
        let inv_mass = 1.0 / params.mass_kg;
        Self {
            params,
            contact,
            noise,
            joint,
            belt_speed_mps,
            inv_mass,
            energy: BlockEnergy::default(),
        }
    }

    /// Parameters.
    pub fn params(&self) -> &BeltBlockParams {
        &self.params
    }

    /// The friction law (with its current mode).
    pub fn law(&self) -> &Law {
        self.contact.law()
    }

    /// The friction law, mutable (live parameter changes).
    pub fn law_mut(&mut self) -> &mut Law {
        self.contact.law_mut()
    }

    /// Replaces the parameters; belt speed and joint follow. The caller re-initialises the
    /// run's mode afterwards if the change moved the contact out of its current mode.
    pub fn set_params(&mut self, params: BeltBlockParams) {
        let fresh = Self::new(params, self.law().clone(), None);
        self.params = fresh.params;
        self.inv_mass = fresh.inv_mass;
        self.joint = fresh.joint;
        self.belt_speed_mps = fresh.belt_speed_mps;
    }

    /// Belt speed [m/s].
    pub fn belt_speed_mps(&self) -> f64 {
        self.belt_speed_mps
    }

    /// The belt joint, if active.
    pub fn joint(&self) -> Option<&BeltJoint> {
        self.joint.as_ref()
    }

    /// Initial state `[x₀, v_b + v_rel,0, law states, 0, 0, 0]`.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.dim()];
        y[0] = self.params.initial_position_m;
        y[1] = self.belt_speed_mps + self.params.initial_slip_velocity_mps;
        let n = self.contact.n_states();
        self.law().initial_states(&mut y[2..2 + n]);
        y
    }

    /// Load factor `N(t)/N₀` from the joint bump and the noise (1 when neither is active).
    fn load_factor(&self, t: f64) -> f64 {
        let mut f = 1.0;
        if let Some(j) = &self.joint {
            f *= j.factor(t);
        }
        if let Some(noise) = &self.noise {
            f *= noise.factor(t);
        }
        f
    }

    /// Instantaneous normal load `N(t)` [N].
    pub fn normal_load_n(&self, t: f64) -> f64 {
        self.params.normal_load_n * self.load_factor(t)
    }

    /// Contact kinematics at `(t, y)`.
    #[inline]
    pub fn contact(&self, t: f64, y: &[f64]) -> Contact {
        self.contact_with::<true>(t, y)
    }

    /// Whether the normal load changes in time (belt joint or load noise).
    fn load_varies(&self) -> bool {
        self.joint.is_some() || self.noise.is_some()
    }

    /// Contact kinematics; with `VARYING_LOAD = false` (only valid when
    /// [`load_varies`](Self::load_varies) is false) the load factor is the constant 1, so
    /// the multiplications by it vanish from compiled batch code.
    #[inline(always)]
    fn contact_with<const VARYING_LOAD: bool>(&self, t: f64, y: &[f64]) -> Contact {
        let p = &self.params;
        let (x, v) = (y[0], y[1]);
        let factor = if VARYING_LOAD {
            self.load_factor(t)
        } else {
            1.0
        };
        Contact {
            t_s: t,
            v_rel_mps: v - self.belt_speed_mps,
            normal_load_n: p.normal_load_n * factor,
            load_ratio: factor,
            // Belt acceleration is zero: holding needs F = m·0 − F_app, F_app = −k·x − c·ẋ.
            f_hold_n: p.stiffness_n_per_m * x + p.damping_ns_per_m * v,
        }
    }

    /// Friction force at `(t, y)` [N].
    pub fn friction_force_n(&self, t: f64, y: &[f64]) -> f64 {
        self.contact.force_n(&self.contact(t, y), y)
    }

    /// Whether the block sticks at `(t, y)`: the law's exact mode when it has one, else
    /// `|v_rel| < 10⁻³·v_b` (Karnopp's law: its own band, [`FrictionLaw::stuck_at`]).
    pub fn is_stuck(&self, t: f64, y: &[f64]) -> bool {
        let c = self.contact(t, y);
        self.law().stuck_at(&c).unwrap_or_else(|| {
            c.v_rel_mps.abs() < STICK_VELOCITY_FRACTION * self.belt_speed_mps.abs().max(1e-9)
        })
    }

    /// Right-hand side with the law given separately (the running `Law`, or its concrete
    /// type in an RK4 batch): `ẋ = v`, `v̇ = (F_f − k·x − c·ẋ)/m`, law states, and the work
    /// rates `F_f·v_rel`, `F_f·v_b`, `c·ẋ²`.
    #[inline(always)]
    fn rhs_with<L: FrictionLaw, const VARYING_LOAD: bool>(
        &self,
        law: &L,
        t: f64,
        y: &[f64],
        dy: &mut [f64],
    ) {
        let p = &self.params;
        let c = self.contact_with::<VARYING_LOAD>(t, y);
        // From the law, not the cached count: a constant once the law's type is known.
        let n = law.n_states();
        let f = law.eval(&c, &y[2..2 + n], &mut dy[2..2 + n]);
        let v = y[1];
        dy[0] = v;
        dy[1] = (f - c.f_hold_n) * self.inv_mass;
        let q = 2 + n;
        dy[q] = f * c.v_rel_mps;
        dy[q + 1] = f * self.belt_speed_mps;
        dy[q + 2] = p.damping_ns_per_m * v * v;
    }

    /// Event functions with the law given separately: the law's own, then the reversal guard.
    #[inline]
    fn events_with<L: FrictionLaw, const VARYING_LOAD: bool>(
        &self,
        law: &L,
        t: f64,
        y: &[f64],
        g: &mut [f64],
    ) {
        let ne = self.contact.n_law_events();
        if ne > 0 {
            let c = self.contact_with::<VARYING_LOAD>(t, y);
            let n = law.n_states();
            law.events(&c, &y[2..2 + n], &mut g[..ne]);
        }
        if let Some(r) = self.contact.reversal() {
            g[ne] = r.guard(y[1] - self.belt_speed_mps);
        }
    }

    /// E₀ such that the balance error is zero now; at t = 0 the work integrals are zero and
    /// this is the initial energy, after a live parameter change it restarts the check.
    fn rebase_energy(&mut self, y: &[f64]) {
        let p = &self.params;
        let works = 2 + self.contact.n_states();
        self.energy
            .rebase(y, works, p.mass_kg, p.stiffness_n_per_m);
    }

    fn apply_switch(&self, switch: LawSwitch, y: &mut [f64]) {
        if switch == LawSwitch::Stick {
            y[1] = self.belt_speed_mps;
        }
    }
}

impl Model for BeltBlock {
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
        let mut v = vec!["x".to_string(), "v".to_string()];
        v.extend(self.law().state_columns().into_iter().map(|c| c.name));
        v.extend(["w_friction", "w_belt", "w_damping"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        // 1 cm and 1 cm/s: with rtol 1e-8 this gives atol 1e-10, as in the peer benchmarks.
        scales[0] = 0.01;
        scales[1] = 0.01;
        let n = self.contact.n_states();
        self.law().state_scales(&mut scales[2..2 + n]);
        for s in &mut scales[2 + n..] {
            *s = 1.0;
        }
    }

    fn is_autonomous(&self) -> bool {
        self.joint.is_none() && self.noise.is_none()
    }

    fn max_step_s(&self, t_s: f64) -> f64 {
        // Only during a joint passage: its start and end are breakpoints, so no step outside
        // it reaches into it (a cap for the whole run cost ℓ_j = 1e-9 m hours).
        match &self.joint {
            Some(j) if j.in_passage(t_s) => j.duration_s / 8.0,
            _ => f64::INFINITY,
        }
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let mut next = f64::INFINITY;
        if let Some(noise) = &self.noise {
            // The load is interpolated linearly between noise grid points: kinks there.
            let dt = noise.params.grid_step_s;
            next = next.min(((t / dt).floor() + 1.0) * dt);
        }
        if let Some(j) = &self.joint {
            // Start and end of each joint passage (jumps of the load's second derivative).
            let k = (t / j.period_s).floor();
            for cand in [k * j.period_s + j.duration_s, (k + 1.0) * j.period_s] {
                if cand > t {
                    next = next.min(cand);
                }
            }
        }
        next
    }

    /// A stuck block moves with the belt.
    fn project(&self, _t: f64, y: &mut [f64]) {
        if self.law().stuck() == Some(true) {
            y[1] = self.belt_speed_mps;
        }
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.start(&c, y, false);
        self.apply_switch(switch, y);
        self.rebase_energy(y);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = BeltBlockParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        spec.check_contacts()?;
        check_same_structure(std::slice::from_ref(self.law()), &spec.laws)?;
        if self.noise.as_ref().map(|n| &n.params) != spec.noise.as_ref() {
            return Err(Restart::Changed("the load noise changed".into()));
        }
        self.contact.law_mut().set_params(&spec.laws[0]);
        self.set_params(params.clone());
        Ok(())
    }

    /// Keeps the law's states, mode and memory ([`FrictionLaw::resume`]) and restarts the
    /// energy check from the current state.
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.start(&c, y, true);
        self.apply_switch(switch, y);
        self.rebase_energy(y);
        Ok(())
    }

    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.rhs_with::<_, true>(self.contact.law(), t, y, dy);
    }

    /// Rows `x, v, law states, W_f, W_b, W_c`; columns `x, v, law states`. With
    /// `F_hold = k·x + c·ẋ`: `∂ẍ/∂x = (∂F/∂F_hold − 1)·k/m`, `∂ẍ/∂ẋ = (∂F/∂v + (∂F/∂F_hold − 1)·c)/m`.
    /// With many independent law states (a GMS or Maxwell-slip law of many elements) the
    /// Jacobian is an arrow: `ẋ` reads `v`; `v̇` reads `x`, `v` and every element; each
    /// element's rate reads `v` and itself. A sparse LU with a fill-reducing order factors it
    /// in `O(n)` (200 elements: the dense `O(n³)` LU dominated every step).
    fn jacobian_structure(&self) -> JacobianStructure {
        let ns = self.contact.n_states();
        if ns < SPARSE_FROM_LAW_STATES || !self.law().states_are_independent() {
            return JacobianStructure::Dense;
        }
        let mut entries = vec![(0, 1), (1, 0), (1, 1)];
        for i in 2..2 + ns {
            entries.extend([(1, i), (i, 1), (i, i)]);
        }
        SparsityPattern::from_entries(2 + ns, entries)
            .map_or(JacobianStructure::Dense, JacobianStructure::Sparse)
    }

    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        let (k, cd) = (p.stiffness_n_per_m, p.damping_ns_per_m);
        let c = self.contact(t, y);
        let Some(slopes) = self.contact.jacobian(&c, y, k, cd, p.mass_kg, jac) else {
            return false;
        };
        let n = self.contact.n_states();
        let nd = 2 + n;
        // Work integrals: Ẇ_f = F·v_rel, Ẇ_b = F·v_b, Ẇ_c = c·ẋ².
        let f = self.friction_force_n(t, y);
        let v_rel = c.v_rel_mps;
        let vb = self.belt_speed_mps;
        let q = nd * nd;
        jac[q] = slopes.df_dq * v_rel;
        jac[q + 1] = slopes.df_dv * v_rel + f;
        jac[q + nd] = slopes.df_dq * vb;
        jac[q + nd + 1] = slopes.df_dv * vb;
        for jj in 0..n {
            jac[q + 2 + jj] = slopes.df_ds[jj] * v_rel;
            jac[q + nd + 2 + jj] = slopes.df_ds[jj] * vb;
        }
        jac[q + 2 * nd + 1] = 2.0 * cd * y[1];
        true
    }

    fn n_events(&self) -> usize {
        self.contact.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.events_with::<_, true>(self.contact.law(), t, y, g);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t, y);
        let switch = self.contact.apply_event(index, &c, y);
        self.apply_switch(switch, y);
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
        cols.extend(self.contact.state_columns());
        cols.extend(energy_columns(1));
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let p = &self.params;
        let n = self.contact.n_states();
        let c = self.contact(t, y);
        row[0] = y[0];
        row[1] = y[1];
        let spring = -p.stiffness_n_per_m * y[0];
        let stuck = self.is_stuck(t, y);
        self.contact
            .write_contact(&c, y, spring, stuck, &mut row[2..7]);
        row[7..7 + n].copy_from_slice(self.contact.states(y));
        let works = 2 + n;
        self.energy.write(
            y,
            works,
            p.mass_kg,
            p.stiffness_n_per_m,
            &mut row[7 + n..],
        );
    }

    fn section_names(&self) -> Vec<String> {
        vec![
            "stick onset (v_rel = 0, rising)".into(),
            "turning point (ẋ = 0, ẍ < 0)".into(),
        ]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = y[1] - self.belt_speed_mps;
        s[1] = -y[1];
    }

    fn prefers_implicit(&self) -> bool {
        self.law().is_stiff()
    }

    fn rk4_batch(&self, batch: &mut Rk4Batch<'_>) -> bool {
        if self.contact.has_after_step() {
            return false;
        }
        self.contact.law().visit(BatchVisit { block: self, batch });
        true
    }
}

/// The bench with its law's concrete type (and whether the load varies, as a constant): the
/// right-hand side of an RK4 batch.
struct WithLaw<'a, L, const VARYING_LOAD: bool> {
    block: &'a BeltBlock,
    law: &'a L,
}

impl<L: FrictionLaw, const VARYING_LOAD: bool> BatchRhs for WithLaw<'_, L, VARYING_LOAD> {
    #[inline(always)]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.block.rhs_with::<L, VARYING_LOAD>(self.law, t, y, dy);
    }

    #[inline]
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.block.events_with::<L, VARYING_LOAD>(self.law, t, y, g);
    }

    #[inline]
    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        Model::sections(self.block, t, y, s);
    }
}

/// Runs an RK4 batch once the law's concrete type is known.
struct BatchVisit<'a, 'b> {
    block: &'a BeltBlock,
    batch: &'a mut Rk4Batch<'b>,
}

impl LawVisitor for BatchVisit<'_, '_> {
    type Output = ();

    fn visit<L: FrictionLaw>(self, law: &L) {
        let block = self.block;
        if block.load_varies() {
            self.batch.run(&WithLaw::<L, true> { block, law });
        } else {
            self.batch.run(&WithLaw::<L, false> { block, law });
        }
    }
}
