//! Two-block Burridge–Knopoff system (MODELS §3.2 with N = 2; the two-mass model of Galvanetto
//! & Bishop 1995 and Awrejcewicz & Olejnik 2003): two blocks on one moving belt, each held to
//! the frame by its own pull spring and damper, coupled to each other by a spring, each with its
//! own friction law.
//! ```text
//! m₁·ẍ₁ + c₁·ẋ₁ + k₁·x₁ − k_c·(x₂ − x₁) = F_f,1(ẋ₁ − v_b, N₁)
//! m₂·ẍ₂ + c₂·ẋ₂ + k₂·x₂ + k_c·(x₂ − x₁) = F_f,2(ẋ₂ − v_b, N₂)
//! ```
//! This is the belt form of S1's eq 1 (`y = x − v·t` turns a plate pulled at `v` over fixed
//! ground into blocks held still over a belt moving at `v`). State
//! `[x₁, ẋ₁, x₂, ẋ₂, law states of contact 1, of contact 2, W_f,1, W_f,2, W_b, W_c]`: the
//! trailing quadratures are each contact's friction work on the relative motion, the belt's
//! input `∫(F_f,1 + F_f,2)·v_b dt` and the dampers' dissipation, so that
//! `E_kin + E_spring = E₀ + W_b + W_f,1 + W_f,2 − W_c` checks every run. A load noise, when
//! given, modulates both normal loads by the same factor.

use super::energy_columns::energy_columns;
use super::contacts::{ContactLaws, check_same_structure};
use super::reversal::Reversal;
use super::{
    Anchor, Built, ConfigOf, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Restart,
    Surface, SystemKind, SystemSpec,
};
use crate::integrate::{Column, Model, Role, SimError};
use crate::laws::{Contact, FrictionLaw, LawConfig, LawSwitch, NoiseParams, NormalLoadNoise};

/// Equation of motion shown in the window.
pub const EQUATION: &str = "m₁·ẍ₁ + c₁·ẋ₁ + k₁·x₁ − k_c·(x₂ − x₁) = F_f,1(ẋ₁ − v_b, N₁),  \
     m₂·ẍ₂ + c₂·ẋ₂ + k₂·x₂ + k_c·(x₂ − x₁) = F_f,2(ẋ₂ − v_b, N₂)";

crate::param_struct! {
    /// Two-block parameters (defaults: a symmetric pair that sticks and slips on a slow belt).
    pub struct TwoBlockParams {
        /// Mass of block 1.
        mass_1_kg: "mass_1" = 1.0, "Mass of block 1", "m₁", "kg", [0.01, 100.0], Log;
        /// Mass of block 2.
        mass_2_kg: "mass_2" = 1.0, "Mass of block 2", "m₂", "kg", [0.01, 100.0], Log;
        /// Spring holding block 1 to the frame.
        pull_stiffness_1_n_per_m: "pull_stiffness_1" = 100.0, "Pull stiffness of block 1", "k₁", "N/m", [0.1, 1e6], Log;
        /// Spring holding block 2 to the frame.
        pull_stiffness_2_n_per_m: "pull_stiffness_2" = 100.0, "Pull stiffness of block 2", "k₂", "N/m", [0.1, 1e6], Log;
        /// Spring between the blocks.
        coupling_stiffness_n_per_m: "coupling_stiffness" = 50.0, "Coupling stiffness", "k_c", "N/m", [0.0, 1e6], Linear;
        /// Damper of block 1.
        damping_1_ns_per_m: "damping_1" = 0.1, "Damping of block 1", "c₁", "N·s/m", [0.0, 100.0], Linear;
        /// Damper of block 2.
        damping_2_ns_per_m: "damping_2" = 0.1, "Damping of block 2", "c₂", "N·s/m", [0.0, 100.0], Linear;
        /// Normal load pressing block 1 on the belt.
        normal_load_1_n: "normal_load_1" = 9.81, "Normal load on block 1", "N₁", "N", [0.0, 1000.0], Linear;
        /// Normal load pressing block 2 on the belt.
        normal_load_2_n: "normal_load_2" = 9.81, "Normal load on block 2", "N₂", "N", [0.0, 1000.0], Linear;
        /// Speed of the belt under both blocks.
        belt_speed_mps: "belt_speed" = 0.1, "Belt speed", "v_b", "m/s", [0.0, 10.0], Linear;
        /// Initial spring extension of block 1.
        initial_position_1_m: "initial_position_1" = 0.0, "Initial position of block 1", "x₁,₀", "m", [-1.0, 1.0], Linear, restart;
        /// Initial spring extension of block 2.
        initial_position_2_m: "initial_position_2" = 0.0, "Initial position of block 2", "x₂,₀", "m", [-1.0, 1.0], Linear, restart;
        /// Initial velocity of block 1 relative to the belt.
        initial_slip_velocity_1_mps: "initial_slip_velocity_1" = 0.0, "Initial slip velocity of block 1", "v_rel,1,0", "m/s", [-10.0, 10.0], Linear, restart;
        /// Initial velocity of block 2 relative to the belt.
        initial_slip_velocity_2_mps: "initial_slip_velocity_2" = 0.0, "Initial slip velocity of block 2", "v_rel,2,0", "m/s", [-10.0, 10.0], Linear, restart;
    }
}

/// Number of blocks.
const N: usize = 2;
/// Quadratures: friction work of each contact, belt input, damping.
const N_WORK: usize = N + 2;
/// Stick threshold of laws without an exact stick mode, as a fraction of the belt speed (as on
/// the bench).
const STICK_VELOCITY_FRACTION: f64 = super::belt_block::STICK_VELOCITY_FRACTION;

impl TwoBlockParams {
    fn mass(&self, i: usize) -> f64 {
        [self.mass_1_kg, self.mass_2_kg][i]
    }

    fn pull(&self, i: usize) -> f64 {
        [self.pull_stiffness_1_n_per_m, self.pull_stiffness_2_n_per_m][i]
    }

    fn damping(&self, i: usize) -> f64 {
        [self.damping_1_ns_per_m, self.damping_2_ns_per_m][i]
    }

    fn normal_load(&self, i: usize) -> f64 {
        [self.normal_load_1_n, self.normal_load_2_n][i]
    }

    /// Normal-mode angular frequencies of the frictionless, undamped pair [rad/s], ascending:
    /// eigenvalues of `M⁻¹K` with `K = [[k₁ + k_c, −k_c], [−k_c, k₂ + k_c]]`.
    pub fn normal_mode_omegas_rad_per_s(&self) -> [f64; 2] {
        let kc = self.coupling_stiffness_n_per_m;
        let (a, d) = (
            (self.pull(0) + kc) / self.mass(0),
            (self.pull(1) + kc) / self.mass(1),
        );
        let bc = kc * kc / (self.mass(0) * self.mass(1));
        let mean = 0.5 * (a + d);
        let root = (0.25 * (a - d) * (a - d) + bc).sqrt();
        [(mean - root).max(0.0).sqrt(), (mean + root).sqrt()]
    }
}

impl SystemKind for TwoBlockParams {
    const NAME: &'static str = "Two-block Burridge–Knopoff";
    const EQUATION: &'static str = EQUATION;

    fn nominal_normal_load_n(&self, contact: usize) -> Option<f64> {
        (contact < 2).then(|| self.normal_load(contact))
    }

    fn n_contacts(&self) -> usize {
        N
    }

    fn layout(&self) -> Layout {
        let block = |i: usize| Dof {
            name: format!("block {}", i + 1),
            symbol: format!("x{}", ["₁", "₂"][i]),
            unit: "m".into(),
            mass: self.mass(i),
        };
        let on_belt = |i: usize| ContactInfo {
            name: format!("block {} on the belt", i + 1),
            dof: i,
            surface: Surface::Belt,
        };
        let pull = |i: usize| Link {
            kind: LinkKind::SpringDamper,
            a: Anchor::Ground,
            b: Anchor::Dof(i),
            label: format!("k{0}, c{0}", ["₁", "₂"][i]),
        };
        Layout {
            scene: None,
            dofs: vec![block(0), block(1)],
            contacts: vec![on_belt(0), on_belt(1)],
            links: vec![
                pull(0),
                pull(1),
                // Ends ordered so the coupling-force column, k_c·(x₂ − x₁), is the force on
                // end b (block 1), as SpringForce says.
                Link {
                    kind: LinkKind::Spring,
                    a: Anchor::Dof(1),
                    b: Anchor::Dof(0),
                    label: "k_c".into(),
                },
            ],
            driver_speed_mps: Some(self.belt_speed_mps),
            substrate: None,
        }
    }

    fn derived(&self) -> Vec<Derived> {
        let [w1, w2] = self.normal_mode_omegas_rad_per_s();
        vec![
            Derived {
                label: "f₁ (in phase)",
                value: w1 / std::f64::consts::TAU,
                unit: "Hz",
            },
            Derived {
                label: "f₂ (opposed)",
                value: w2 / std::f64::consts::TAU,
                unit: "Hz",
            },
        ]
    }

    fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built {
        let mut configs: Vec<LawConfig> = laws.to_vec();
        configs.resize(N, laws.first().cloned().unwrap_or_default());
        let model = TwoBlock::new(
            self.clone(),
            ContactLaws::new(&configs),
            noise.cloned().map(NormalLoadNoise::new),
        );
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

/// The two-block model.
#[derive(Clone, Debug)]
pub struct TwoBlock {
    params: TwoBlockParams,
    laws: ContactLaws,
    noise: Option<NormalLoadNoise>,
    /// Velocity-reversal events of the contacts whose law has a kink at `v_rel = 0`.
    reversals: [Option<Reversal>; N],
    initial_energy_j: f64,
}

impl TwoBlock {
    /// Model with one law per block and optional load noise.
    pub fn new(params: TwoBlockParams, laws: ContactLaws, noise: Option<NormalLoadNoise>) -> Self {
        let slip = [
            params.initial_slip_velocity_1_mps,
            params.initial_slip_velocity_2_mps,
        ];
        let reversals = std::array::from_fn(|i| {
            crate::laws::FrictionLaw::kinks_at_reversal(laws.law(i)).then(|| Reversal::new(slip[i]))
        });
        Self {
            params,
            laws,
            noise,
            reversals,
            initial_energy_j: 0.0,
        }
    }

    /// Initial state: positions, belt speed plus the initial slip velocities, law states,
    /// zero work.
    pub fn initial_state(&self) -> Vec<f64> {
        let p = &self.params;
        let mut y = vec![0.0; self.dim()];
        y[0] = p.initial_position_1_m;
        y[1] = p.belt_speed_mps + p.initial_slip_velocity_1_mps;
        y[2] = p.initial_position_2_m;
        y[3] = p.belt_speed_mps + p.initial_slip_velocity_2_mps;
        self.laws.initial_states(&mut y[2 * N..2 * N + self.laws.n_states()]);
        y
    }

    fn law_block<'a>(&self, y: &'a [f64]) -> &'a [f64] {
        &y[2 * N..2 * N + self.laws.n_states()]
    }

    fn load_factor(&self, t: f64) -> f64 {
        self.noise.as_ref().map_or(1.0, |n| n.factor(t))
    }

    /// Coupling spring force on block 1, `k_c·(x₂ − x₁)` [N].
    fn coupling_force_n(&self, y: &[f64]) -> f64 {
        self.params.coupling_stiffness_n_per_m * (y[2] - y[0])
    }

    /// Kinematics of contact `i`: the holding force is what friction must supply to keep the
    /// block at belt speed, `k_i·x_i + c_i·ẋ_i ∓ k_c·(x₂ − x₁)`.
    fn contact(&self, i: usize, t: f64, y: &[f64]) -> Contact {
        let p = &self.params;
        let (x, v) = (y[2 * i], y[2 * i + 1]);
        let coupling = self.coupling_force_n(y) * if i == 0 { 1.0 } else { -1.0 };
        let factor = self.load_factor(t);
        Contact {
            t_s: t,
            v_rel_mps: v - p.belt_speed_mps,
            normal_load_n: p.normal_load(i) * factor,
            load_ratio: factor,
            f_hold_n: p.pull(i) * x + p.damping(i) * v - coupling,
        }
    }

    fn apply_switch(&self, i: usize, switch: LawSwitch, y: &mut [f64]) {
        if switch == LawSwitch::Stick {
            y[2 * i + 1] = self.params.belt_speed_mps;
        }
    }

    fn is_stuck(&self, i: usize, t: f64, y: &[f64]) -> bool {
        let c = self.contact(i, t, y);
        self.laws.stuck(i, &c).unwrap_or_else(|| {
            c.v_rel_mps.abs() < STICK_VELOCITY_FRACTION * self.params.belt_speed_mps.abs().max(1e-9)
        })
    }

    fn energies_j(&self, y: &[f64]) -> (f64, f64) {
        let p = &self.params;
        let kinetic = (0..N)
            .map(|i| 0.5 * p.mass(i) * y[2 * i + 1] * y[2 * i + 1])
            .sum::<f64>();
        let d = y[2] - y[0];
        let stored = (0..N)
            .map(|i| 0.5 * p.pull(i) * y[2 * i] * y[2 * i])
            .sum::<f64>()
            + 0.5 * p.coupling_stiffness_n_per_m * d * d;
        (kinetic, stored)
    }

    fn work_at(&self) -> usize {
        2 * N + self.laws.n_states()
    }

    /// `E₀` such that the balance error is zero at state `y`.
    fn rebase_energy(&mut self, y: &[f64]) {
        let q = self.work_at();
        let (ek, es) = self.energies_j(y);
        let work = y[q] + y[q + 1] + y[q + 2] - y[q + 3];
        self.initial_energy_j = ek + es - work;
    }

    /// Number of law events before the reversal events.
    fn n_law_events(&self) -> usize {
        self.laws.n_events()
    }

    /// Contact of the reversal event `k` (counted after the law events).
    fn reversal_owner(&self, k: usize) -> Option<usize> {
        (0..N).filter(|&i| self.reversals[i].is_some()).nth(k)
    }

    fn start_modes(&mut self, t: f64, y: &mut [f64], fresh: bool) {
        for i in 0..N {
            let c = self.contact(i, t, y);
            let r = 2 * N..2 * N + self.laws.n_states();
            let switch = if fresh {
                self.laws.initialize(i, &c, &mut y[r])
            } else {
                self.laws.resume(i, &c, &mut y[r])
            };
            self.apply_switch(i, switch, y);
            let v_rel = y[2 * i + 1] - self.params.belt_speed_mps;
            if let Some(rev) = self.reversals[i].as_mut() {
                rev.reset(v_rel);
            }
        }
        self.rebase_energy(y);
    }
}

/// Index subscripts for column names and symbols.
fn sub(i: usize) -> &'static str {
    ["₁", "₂"][i]
}

impl Model for TwoBlock {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2 * N + self.laws.n_states() + N_WORK
    }

    fn n_quadratures(&self) -> usize {
        N_WORK
    }

    fn state_names(&self) -> Vec<String> {
        let mut v: Vec<String> = ["x1", "v1", "x2", "v2"].map(String::from).into();
        v.extend(self.laws.state_columns(|i| (i + 1).to_string()).into_iter().map(|c| c.name));
        v.extend(["w_friction1", "w_friction2", "w_belt", "w_damping"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales[..2 * N].iter_mut().for_each(|s| *s = 0.01);
        let q = self.work_at();
        self.laws.state_scales(&mut scales[2 * N..q]);
        scales[q..].iter_mut().for_each(|s| *s = 1.0);
    }

    fn is_autonomous(&self) -> bool {
        self.noise.is_none()
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        self.noise.as_ref().map_or(f64::INFINITY, |n| {
            let dt = n.params.grid_step_s;
            ((t / dt).floor() + 1.0) * dt
        })
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.start_modes(t, y, true);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = TwoBlockParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        spec.check_contacts()?;
        check_same_structure(self.laws.laws(), &spec.laws)?;
        if self.noise.as_ref().map(|n| &n.params) != spec.noise.as_ref() {
            return Err(Restart::Changed("the load noise changed".into()));
        }
        self.laws.set_params(&spec.laws)?;
        self.params = params.clone();
        Ok(())
    }

    /// Each stuck block moves with the belt.
    fn project(&self, _t: f64, y: &mut [f64]) {
        for i in 0..N {
            if self.laws.law(i).stuck() == Some(true) {
                y[2 * i + 1] = self.params.belt_speed_mps;
            }
        }
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.start_modes(t, y, false);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let q = self.work_at();
        let (block, rest) = dy.split_at_mut(q);
        let (kinematics, d_laws) = block.split_at_mut(2 * N);
        let states = self.law_block(y);
        let mut w_belt = 0.0;
        let mut w_damp = 0.0;
        for i in 0..N {
            let c = self.contact(i, t, y);
            let f = self.laws.eval(i, &c, states, d_laws);
            let v = y[2 * i + 1];
            // Multiplied by 1/m like the bench, so a symmetric pair moves exactly like it.
            dy_kinematics(kinematics, i, v, (f - c.f_hold_n) * (1.0 / p.mass(i)));
            rest[i] = f * c.v_rel_mps;
            w_belt += f * p.belt_speed_mps;
            w_damp += p.damping(i) * v * v;
        }
        rest[N] = w_belt;
        rest[N + 1] = w_damp;
    }

    fn n_events(&self) -> usize {
        self.n_law_events() + self.reversals.iter().flatten().count()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let states = self.law_block(y);
        for i in 0..N {
            if !self.laws.event_range(i).is_empty() {
                let c = self.contact(i, t, y);
                self.laws.events(i, &c, states, g);
            }
        }
        let mut k = self.n_law_events();
        for i in 0..N {
            if let Some(r) = &self.reversals[i] {
                g[k] = r.guard(y[2 * i + 1] - self.params.belt_speed_mps);
                k += 1;
            }
        }
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let ne = self.n_law_events();
        if index >= ne {
            if let Some(i) = self.reversal_owner(index - ne)
                && let Some(r) = self.reversals[i].as_mut()
            {
                r.flip();
            }
            return Ok(());
        }
        let Some((i, local)) = self.laws.event_owner(index) else {
            return Ok(());
        };
        let c = self.contact(i, t, y);
        let q = self.work_at();
        let switch = self.laws.apply_event(i, local, &c, &mut y[2 * N..q]);
        self.apply_switch(i, switch, y);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        if !self.laws.has_after_step() {
            return false;
        }
        let q = self.work_at();
        let mut changed = false;
        for i in 0..N {
            let c = self.contact(i, t, y);
            changed |= self.laws.after_step(i, &c, &mut y[2 * N..q]);
        }
        changed
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = Vec::new();
        for i in 0..N {
            let n = i + 1;
            cols.push(
                Column::new(format!("x{n}"), "m")
                    .role(Role::Position(i))
                    .symbol(format!("x{}", sub(i))),
            );
            cols.push(
                Column::new(format!("v{n}"), "m/s")
                    .role(Role::Velocity(i))
                    .symbol(format!("v{}", sub(i))),
            );
        }
        for i in 0..N {
            let n = i + 1;
            let s = sub(i);
            cols.extend([
                Column::new(format!("v_rel{n}"), "m/s")
                    .role(Role::SlipVelocity(i))
                    .symbol(format!("v_rel{s}")),
                Column::new(format!("friction_force{n}"), "N")
                    .role(Role::FrictionForce(i))
                    .symbol(format!("F_f{s}")),
                Column::new(format!("stick{n}"), "")
                    .role(Role::Stick(i))
                    .symbol(format!("stick{s}")),
                Column::new(format!("normal_load{n}"), "N")
                    .role(Role::NormalLoad(i))
                    .symbol(format!("N{s}")),
            ]);
        }
        cols.push(
            Column::new("coupling_force", "N")
                .role(Role::SpringForce(2))
                .symbol("k_c·(x₂ − x₁)"),
        );
        cols.extend(self.laws.state_columns(|i| (i + 1).to_string()));
        cols.extend(energy_columns(N));
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        row[..2 * N].copy_from_slice(&y[..2 * N]);
        let states = self.law_block(y);
        let mut k = 2 * N;
        for i in 0..N {
            let c = self.contact(i, t, y);
            row[k] = c.v_rel_mps;
            row[k + 1] = self.laws.force(i, &c, states);
            row[k + 2] = f64::from(u8::from(self.is_stuck(i, t, y)));
            row[k + 3] = c.normal_load_n;
            k += 4;
        }
        row[k] = self.coupling_force_n(y);
        k += 1;
        let ns = self.laws.n_states();
        row[k..k + ns].copy_from_slice(states);
        k += ns;
        let q = self.work_at();
        let (ek, es) = self.energies_j(y);
        let w = &y[q..q + N_WORK];
        row[k] = ek;
        row[k + 1] = es;
        row[k + 2..k + 2 + N_WORK].copy_from_slice(w);
        row[k + 2 + N_WORK] = ek + es - (self.initial_energy_j + w[0] + w[1] + w[2] - w[3]);
    }

    fn section_names(&self) -> Vec<String> {
        vec![
            "block 1 sticks (v_rel,1 = 0, rising)".into(),
            "block 1 turns (ẋ₁ = 0, ẍ₁ < 0)".into(),
            "block 2 sticks (v_rel,2 = 0, rising)".into(),
            "block 2 turns (ẋ₂ = 0, ẍ₂ < 0)".into(),
        ]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        let vb = self.params.belt_speed_mps;
        s[0] = y[1] - vb;
        s[1] = -y[1];
        s[2] = y[3] - vb;
        s[3] = -y[3];
    }

    fn prefers_implicit(&self) -> bool {
        self.laws.laws().iter().any(crate::laws::FrictionLaw::is_stiff)
    }
}

/// `ẋ_i = v_i`, `v̇_i = a_i` into the kinematic block.
#[inline]
fn dy_kinematics(dy: &mut [f64], i: usize, v: f64, a: f64) {
    dy[2 * i] = v;
    dy[2 * i + 1] = a;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_modes_of_a_symmetric_pair() {
        // m = 1, k = 100, k_c = 50: ω² = 100 (in phase) and 100 + 2·50 = 200 (opposed).
        let p = TwoBlockParams::default();
        let [w1, w2] = p.normal_mode_omegas_rad_per_s();
        assert!((w1 - 10.0).abs() < 1e-12, "{w1}");
        assert!((w2 - 200f64.sqrt()).abs() < 1e-12, "{w2}");
    }
}
