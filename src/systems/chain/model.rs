//! The chain's model: right-hand side, events, stick switches and outputs, all O(N).

mod jacobian;

use super::{ChainParams, subscript};
use crate::integrate::{Column, JacobianStructure, Model, Role, SimError, SparsityPattern};
use crate::laws::{Contact, FrictionLaw, LawSwitch, NormalLoadNoise};
use crate::systems::contacts::{ContactLaws, check_same_structure};
use crate::systems::reversal::Reversal;
use crate::systems::{ConfigOf, Restart, SystemSpec};
use crate::systems::energy_columns::energy_columns_summed;

/// Work integrals: friction on the relative motion (all blocks), belt input, damping.
const N_WORK: usize = 3;
/// Stick threshold of laws without an exact stick mode, as a fraction of the belt speed (as on
/// the bench).
const STICK_VELOCITY_FRACTION: f64 = crate::systems::belt_block::STICK_VELOCITY_FRACTION;

/// The Burridge–Knopoff chain model ([module docs](super)).
#[derive(Clone, Debug)]
pub struct Chain {
    params: ChainParams,
    laws: ContactLaws,
    noise: Option<NormalLoadNoise>,
    /// Number of blocks.
    n: usize,
    /// Start of each block's segment `[x, ẋ, law states]`, plus the start of the work block.
    seg_at: Vec<usize>,
    /// Left and right neighbour of each block.
    neighbours: Vec<(Option<usize>, Option<usize>)>,
    /// Velocity-reversal trackers of the blocks whose law kinks at `v_rel = 0`.
    reversals: Vec<Option<Reversal>>,
    /// Block of each reversal event (counted after the law events).
    reversal_block: Vec<usize>,
    /// `1/m_i` of each block.
    inv_mass: Vec<f64>,
    masses_kg: Vec<f64>,
    initial_energy_j: f64,
    /// Pattern of the dynamic Jacobian (`None` only if it could not be built).
    pattern: Option<SparsityPattern>,
}

impl Chain {
    /// Model with one law per block and optional load noise (the same factor on every block).
    pub fn new(params: ChainParams, laws: ContactLaws, noise: Option<NormalLoadNoise>) -> Self {
        let n = params.n_blocks();
        let mut seg_at = Vec::with_capacity(n + 1);
        let mut at = 0;
        for i in 0..n {
            seg_at.push(at);
            at += 2 + laws.state_range(i).len();
        }
        seg_at.push(at);
        let neighbours = (0..n).map(|i| params.ends.neighbours(i, n)).collect();
        let reversals: Vec<Option<Reversal>> = (0..n)
            .map(|i| laws.law(i).kinks_at_reversal().then(|| Reversal::new(0.0)))
            .collect();
        let reversal_block = (0..n).filter(|&i| reversals[i].is_some()).collect();
        let masses_kg = params.masses_kg();
        let inv_mass = masses_kg.iter().map(|m| 1.0 / m).collect();
        let mut chain = Self {
            params,
            laws,
            noise,
            n,
            seg_at,
            neighbours,
            reversals,
            reversal_block,
            inv_mass,
            masses_kg,
            initial_energy_j: 0.0,
            pattern: None,
        };
        chain.pattern = chain.sparsity();
        chain
    }

    /// The parameters.
    pub fn params(&self) -> &ChainParams {
        &self.params
    }

    /// Initial state: the pattern's positions, every block carried at belt speed, law states,
    /// zero work.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.dim()];
        for (i, x) in self.params.initial_positions_m().into_iter().enumerate() {
            let s = self.seg_at[i];
            y[s] = x;
            y[s + 1] = self.params.belt_speed_mps;
            self.laws
                .law(i)
                .initial_states(&mut y[s + 2..self.seg_at[i + 1]]);
        }
        y
    }

    #[inline]
    fn x(&self, y: &[f64], i: usize) -> f64 {
        y[self.seg_at[i]]
    }

    /// Position of a neighbour, or of the frame (0) when the end is fixed; `None` at a free end.
    #[inline]
    fn neighbour_x(&self, y: &[f64], j: Option<usize>) -> Option<f64> {
        match j {
            Some(j) => Some(self.x(y, j)),
            None => self.params.ends.ties_to_frame().then_some(0.0),
        }
    }

    /// Coupling force on block `i`, `k_c·(x_{i−1} − x_i) + k_c·(x_{i+1} − x_i)` [N].
    #[inline]
    fn coupling_force_n(&self, y: &[f64], i: usize) -> f64 {
        let x = self.x(y, i);
        let (l, r) = self.neighbours[i];
        let mut f = 0.0;
        if let Some(xl) = self.neighbour_x(y, l) {
            f += xl - x;
        }
        if let Some(xr) = self.neighbour_x(y, r) {
            f += xr - x;
        }
        self.params.coupling_stiffness_n_per_m * f
    }

    #[inline]
    fn load_factor(&self, t: f64) -> f64 {
        self.noise.as_ref().map_or(1.0, |n| n.factor(t))
    }

    /// Kinematics of block `i`'s contact: the holding force is what friction must supply to
    /// keep the block at belt speed, `k_p·x_i + c·ẋ_i − (coupling force)`.
    #[inline]
    fn contact(&self, i: usize, t: f64, y: &[f64], factor: f64) -> Contact {
        let p = &self.params;
        let s = self.seg_at[i];
        let (x, v) = (y[s], y[s + 1]);
        Contact {
            t_s: t,
            v_rel_mps: v - p.belt_speed_mps,
            normal_load_n: p.normal_load_n * factor,
            load_ratio: factor,
            f_hold_n: p.pull_stiffness_n_per_m * x + p.damping_ns_per_m * v
                - self.coupling_force_n(y, i),
        }
    }

    fn states_range(&self, i: usize) -> std::ops::Range<usize> {
        self.seg_at[i] + 2..self.seg_at[i + 1]
    }

    fn friction_force_n(&self, i: usize, c: &Contact, y: &[f64]) -> f64 {
        let r = self.states_range(i);
        let mut ds = vec![0.0; r.len()];
        self.laws.law(i).eval(c, &y[r], &mut ds)
    }

    fn is_stuck(&self, i: usize, c: &Contact) -> bool {
        self.laws.stuck(i, c).unwrap_or_else(|| {
            c.v_rel_mps.abs() < STICK_VELOCITY_FRACTION * self.params.belt_speed_mps.abs().max(1e-9)
        })
    }

    fn energies_j(&self, y: &[f64]) -> (f64, f64) {
        let p = &self.params;
        let mut kinetic = 0.0;
        let mut stored = 0.0;
        for i in 0..self.n {
            let s = self.seg_at[i];
            kinetic += 0.5 * self.masses_kg[i] * y[s + 1] * y[s + 1];
            stored += 0.5 * p.pull_stiffness_n_per_m * y[s] * y[s];
        }
        for (a, b) in p.ends.springs(self.n) {
            let xa = a.map_or(0.0, |a| self.x(y, a));
            let xb = b.map_or(0.0, |b| self.x(y, b));
            stored += 0.5 * p.coupling_stiffness_n_per_m * (xb - xa) * (xb - xa);
        }
        (kinetic, stored)
    }

    fn work_at(&self) -> usize {
        self.seg_at[self.n]
    }

    fn rebase_energy(&mut self, y: &[f64]) {
        let q = self.work_at();
        let (ek, es) = self.energies_j(y);
        self.initial_energy_j = ek + es - (y[q] + y[q + 1] - y[q + 2]);
    }

    fn apply_switch(&self, i: usize, switch: LawSwitch, y: &mut [f64]) {
        if switch == LawSwitch::Stick {
            y[self.seg_at[i] + 1] = self.params.belt_speed_mps;
        }
    }

    fn start_modes(&mut self, t: f64, y: &mut [f64], fresh: bool) {
        let factor = self.load_factor(t);
        for i in 0..self.n {
            let c = self.contact(i, t, y, factor);
            let r = self.states_range(i);
            let law = self.laws.law_mut(i);
            let switch = if fresh {
                law.initialize(&c, &mut y[r])
            } else {
                law.resume(&c, &mut y[r])
            };
            self.apply_switch(i, switch, y);
            let v_rel = y[self.seg_at[i] + 1] - self.params.belt_speed_mps;
            if let Some(rev) = self.reversals[i].as_mut() {
                *rev = Reversal::new(v_rel);
            }
        }
        self.rebase_energy(y);
    }
}

impl Model for Chain {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        self.work_at() + N_WORK
    }

    fn n_quadratures(&self) -> usize {
        N_WORK
    }

    fn state_names(&self) -> Vec<String> {
        let mut v = Vec::with_capacity(self.dim());
        for i in 0..self.n {
            let k = i + 1;
            v.push(format!("x{k}"));
            v.push(format!("v{k}"));
            v.extend(
                self.laws
                    .law(i)
                    .state_columns()
                    .into_iter()
                    .map(|c| format!("{}{k}", c.name)),
            );
        }
        v.extend(["w_friction", "w_belt", "w_damping"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        // 1 mm: the chain's displacements are of the order of F/k_p.
        for i in 0..self.n {
            let s = self.seg_at[i];
            scales[s] = 1e-3;
            scales[s + 1] = 1e-3;
            self.laws
                .law(i)
                .state_scales(&mut scales[s + 2..self.seg_at[i + 1]]);
        }
        let q = self.work_at();
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
        let params = ChainParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.n_blocks() != self.n || params.ends != self.params.ends {
            return Err(Restart::Changed(
                "the number of blocks or the ends changed".into(),
            ));
        }
        spec.check_contacts()?;
        check_same_structure(self.laws.laws(), &spec.laws)?;
        if self.noise.as_ref().map(|n| &n.params) != spec.noise.as_ref() {
            return Err(Restart::Changed("the load noise changed".into()));
        }
        self.laws.set_params(&spec.laws)?;
        self.params = params.clone();
        self.masses_kg = self.params.masses_kg();
        self.inv_mass = self.masses_kg.iter().map(|m| 1.0 / m).collect();
        Ok(())
    }

    /// Each stuck block moves with the belt.
    fn project(&self, _t: f64, y: &mut [f64]) {
        for i in 0..self.n {
            if self.laws.law(i).stuck() == Some(true) {
                y[self.seg_at[i] + 1] = self.params.belt_speed_mps;
            }
        }
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.start_modes(t, y, false);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let factor = self.load_factor(t);
        let (mut w_f, mut w_b, mut w_c) = (0.0, 0.0, 0.0);
        for i in 0..self.n {
            let c = self.contact(i, t, y, factor);
            let s = self.seg_at[i];
            let r = s + 2..self.seg_at[i + 1];
            let f = self.laws.law(i).eval(&c, &y[r.clone()], &mut dy[r]);
            let v = y[s + 1];
            dy[s] = v;
            // Multiplied by 1/m like the bench, so a uniform chain moves exactly like it.
            dy[s + 1] = (f - c.f_hold_n) * self.inv_mass[i];
            w_f += f * c.v_rel_mps;
            w_b += f * p.belt_speed_mps;
            w_c += p.damping_ns_per_m * v * v;
        }
        let q = self.work_at();
        dy[q] = w_f;
        dy[q + 1] = w_b;
        dy[q + 2] = w_c;
    }

    fn n_events(&self) -> usize {
        self.laws.n_events() + self.reversal_block.len()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let factor = self.load_factor(t);
        if self.laws.n_events() > 0 {
            for i in 0..self.n {
                let er = self.laws.event_range(i);
                if !er.is_empty() {
                    let c = self.contact(i, t, y, factor);
                    self.laws
                        .law(i)
                        .events(&c, &y[self.states_range(i)], &mut g[er]);
                }
            }
        }
        let ne = self.laws.n_events();
        for (k, &i) in self.reversal_block.iter().enumerate() {
            if let Some(r) = &self.reversals[i] {
                g[ne + k] = r.guard(y[self.seg_at[i] + 1] - self.params.belt_speed_mps);
            }
        }
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let ne = self.laws.n_events();
        if index >= ne {
            if let Some(&i) = self.reversal_block.get(index - ne)
                && let Some(r) = self.reversals[i].as_mut()
            {
                r.flip();
            }
            return Ok(());
        }
        let Some((i, local)) = self.laws.event_owner(index) else {
            return Ok(());
        };
        let c = self.contact(i, t, y, self.load_factor(t));
        let r = self.states_range(i);
        let switch = self.laws.law_mut(i).apply_event(local, &c, &mut y[r]);
        self.apply_switch(i, switch, y);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        if !self.laws.has_after_step() {
            return false;
        }
        let factor = self.load_factor(t);
        let mut changed = false;
        for i in 0..self.n {
            let c = self.contact(i, t, y, factor);
            let r = self.states_range(i);
            changed |= self.laws.law_mut(i).after_step(&c, &mut y[r]);
        }
        changed
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = Vec::with_capacity(6 * self.n + self.laws.n_states() + 6);
        for i in 0..self.n {
            let (k, s) = (i + 1, subscript(i + 1));
            cols.push(
                Column::new(format!("x{k}"), "m")
                    .role(Role::Position(i))
                    .symbol(format!("x{s}")),
            );
            cols.push(
                Column::new(format!("v{k}"), "m/s")
                    .role(Role::Velocity(i))
                    .symbol(format!("v{s}")),
            );
        }
        for i in 0..self.n {
            let (k, s) = (i + 1, subscript(i + 1));
            cols.extend([
                Column::new(format!("v_rel{k}"), "m/s")
                    .role(Role::SlipVelocity(i))
                    .symbol(format!("v_rel{s}")),
                Column::new(format!("friction_force{k}"), "N")
                    .role(Role::FrictionForce(i))
                    .symbol(format!("F_f{s}")),
                Column::new(format!("stick{k}"), "")
                    .role(Role::Stick(i))
                    .symbol(format!("stick{s}")),
                Column::new(format!("normal_load{k}"), "N")
                    .role(Role::NormalLoad(i))
                    .symbol(format!("N{s}")),
            ]);
        }
        cols.extend(self.laws.state_columns(|i| (i + 1).to_string()));
        cols.extend(energy_columns_summed());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let n = self.n;
        let factor = self.load_factor(t);
        for i in 0..n {
            let s = self.seg_at[i];
            row[2 * i] = y[s];
            row[2 * i + 1] = y[s + 1];
        }
        let mut k = 2 * n;
        for i in 0..n {
            let c = self.contact(i, t, y, factor);
            row[k] = c.v_rel_mps;
            row[k + 1] = self.friction_force_n(i, &c, y);
            row[k + 2] = f64::from(u8::from(self.is_stuck(i, &c)));
            row[k + 3] = c.normal_load_n;
            k += 4;
        }
        for i in 0..n {
            let r = self.states_range(i);
            row[k..k + r.len()].copy_from_slice(&y[r.clone()]);
            k += r.len();
        }
        let q = self.work_at();
        let (ek, es) = self.energies_j(y);
        let w = &y[q..q + N_WORK];
        row[k] = ek;
        row[k + 1] = es;
        row[k + 2..k + 2 + N_WORK].copy_from_slice(w);
        row[k + 2 + N_WORK] = ek + es - (self.initial_energy_j + w[0] + w[1] - w[2]);
    }

    fn section_names(&self) -> Vec<String> {
        vec![
            "block 1 sticks (v_rel,1 = 0, rising)".into(),
            "block 1 turns (ẋ₁ = 0, ẍ₁ < 0)".into(),
        ]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        let v = y[self.seg_at[0] + 1];
        s[0] = v - self.params.belt_speed_mps;
        s[1] = -v;
    }

    fn records_switch_rows(&self) -> bool {
        self.n <= crate::systems::chain::SWITCH_ROWS_MAX_BLOCKS
    }

    fn prefers_implicit(&self) -> bool {
        self.laws.laws().iter().any(FrictionLaw::is_stiff)
    }

    /// Block-tridiagonal: the velocity and law-state rows of block `i` depend on its own
    /// segment and on its neighbours' positions (through the coupling and the holding force);
    /// a ring adds the corners.
    fn jacobian_structure(&self) -> JacobianStructure {
        self.pattern
            .clone()
            .map_or(JacobianStructure::Dense, JacobianStructure::Sparse)
    }

    fn jacobian_sparse(&self, t: f64, y: &[f64], values: &mut [f64]) -> bool {
        self.jacobian_values(t, y, values)
    }
}
