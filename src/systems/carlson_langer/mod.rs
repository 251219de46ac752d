//! Carlson–Langer chain: the Burridge–Knopoff chain in the dimensionless form of Carlson &
//! Langer (Phys Rev A 40:6470, 1989) with the velocity-weakening friction of Carlson, Langer,
//! Shaw & Tang (Phys Rev A 44:884, 1991) (MODELS §3.2). Blocks on fixed ground, each pulled by
//! a leaf spring from a plate moving at speed `ν`, coupled to their neighbours:
//! ```text
//! Ü_j = ℓ²·(U_{j+1} − 2U_j + U_{j−1}) − (U_j − ν·τ) − φ(U̇_j)
//! stuck (U̇_j = 0) while F_j = ℓ²·(U_{j+1} − 2U_j + U_{j−1}) − (U_j − ν·τ) ≤ 1
//! φ(U̇) = (1 − σ)/(1 + 2α·U̇/(1 − σ))  for U̇ > 0;   U̇ < 0 is forbidden
//! ```
//! Time in units of `1/ω_p` (`ω_p = √(k_p/m)`), lengths in units of `F₀/k_p` (`F₀` the static
//! threshold), `ℓ² = k_c/k_p`. The friction is part of the model (the law menu does not
//! apply): a block sticks exactly until its elastic force reaches the threshold 1, then slips
//! with the force dropping to `1 − σ` and weakening with speed (`2α` the weakening rate at
//! `U̇ = 0⁺`); it sticks again when `U̇` comes back to zero, and the friction holds any force
//! below the threshold, backward as well (no backward slip).
//!
//! Decision on MODELS' open point (placement of `2α` and `σ` in `φ`): the 1991 form above, so
//! that `φ(0⁺) = 1 − σ` (the static-to-kinetic drop `σ` is a parameter of its own) and
//! `φ′(0⁺) = −2α` exactly; the 1989 symmetric `φ = 1/(1 + 2α|U̇|)` is `σ → 0`.
//!
//! Each block switches by its own located event; stuck blocks cost two writes per evaluation.
//! State `[y_1, U̇_1, …, y_N, U̇_N, W_p, W_f]` with `y_j = U_j − ν·τ` the leaf spring's
//! stretch (so that free and periodic chains are autonomous: a stuck block has `ẏ = −ν`), then
//! the plate's input and the friction work, so that `E_kin + E_spring = E₀ + W_p + W_f`
//! checks every run. Outputs give the positions `U_j` on the ground.

mod engine;

pub use engine::ActiveSetRun;

use super::chain::{ChainEnds, InitialPattern, subscript};
use super::{
    Anchor, Built, ConfigOf, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Restart, Surface,
    SystemKind, SystemSpec,
};
use crate::integrate::driver::DriverSettings;
use crate::integrate::{Column, Engine, Method, Model, Role, SimError};
use crate::laws::{LawConfig, NoiseParams};

/// Equation of motion shown in the window.
pub const EQUATION: &str = "Üⱼ = ℓ²·(Uⱼ₊₁ − 2Uⱼ + Uⱼ₋₁) − (Uⱼ − ν·τ) − φ(U̇ⱼ),  \
     φ = (1 − σ)/(1 + 2α·U̇/(1 − σ)),  stuck while the spring force ≤ 1";

crate::param_struct! {
    /// Carlson–Langer parameters (defaults: the classic ℓ = 10, α = 2.5, σ = ν = 0.01).
    pub struct CarlsonLangerParams {
        /// Number of blocks.
        blocks: "blocks" = 100.0, "Number of blocks", "N", "", [1.0, 5000.0], Log, integer, restart;
        /// Stiffness ratio ℓ = √(k_c/k_p): how far along the chain a slip pulls.
        stiffness_ratio: "stiffness_ratio" = 10.0, "Stiffness ratio", "ℓ", "", [0.0, 100.0], Linear;
        /// Velocity weakening of the friction: its slope at the start of slip is −2α.
        alpha: "alpha" = 2.5, "Velocity weakening", "α", "", [0.0, 20.0], Linear;
        /// Drop of the friction from the static threshold 1 to 1 − σ when slip starts.
        sigma: "sigma" = 0.01, "Static-to-kinetic drop", "σ", "", [1e-4, 0.9], Log;
        /// Speed of the pulling plate (in units of F₀/(k_p) per 1/ω_p).
        plate_speed: "plate_speed" = 0.01, "Plate speed", "ν", "", [1e-6, 1.0], Log;
        /// Amplitude of the initial displacements (pattern below).
        initial_spread: "initial_spread" = 1e-3, "Initial displacement spread", "A", "", [0.0, 1.0], Linear, restart;
    }
    extra {
        /// Boundary condition of the coupling springs.
        ends: "ends": ChainEnds = ChainEnds::Free;
        /// How the initial displacements spread along the chain.
        initial_pattern: "initial_pattern": InitialPattern = InitialPattern::Random { seed: 1 };
    }
}

impl CarlsonLangerParams {
    /// Number of blocks as a count.
    pub fn n_blocks(&self) -> usize {
        (self.blocks.round() as usize).clamp(1, super::chain::MAX_BLOCKS)
    }

    /// Friction of a slipping block at `U̇ > 0`, `φ(U̇) = (1 − σ)/(1 + 2α·U̇/(1 − σ))`.
    #[inline]
    pub fn friction(&self, u_dot: f64) -> f64 {
        let s = 1.0 - self.sigma;
        s / (1.0 + 2.0 * self.alpha * u_dot / s)
    }

    /// Period of the single block's stick–slip cycle without velocity weakening (α = 0),
    /// derived in the tests: `T = 2π − 2·arctan(σ/ν) + 2σ/ν`.
    pub fn single_block_period_alpha0(&self) -> f64 {
        let (s, nu) = (self.sigma, self.plate_speed);
        std::f64::consts::TAU - 2.0 * (s / nu).atan() + 2.0 * s / nu
    }
}

impl SystemKind for CarlsonLangerParams {
    const NAME: &'static str = "Carlson–Langer chain (dimensionless)";
    const EQUATION: &'static str = EQUATION;

    /// The friction is built into the model: no contact takes a law from the preset.
    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        let n = self.n_blocks();
        let mut links: Vec<Link> = (0..n)
            .map(|i| Link {
                kind: LinkKind::Spring,
                a: Anchor::Driver,
                b: Anchor::Dof(i),
                label: "1".into(),
            })
            .collect();
        links.extend(self.ends.springs(n).into_iter().map(|(a, b)| Link {
            kind: LinkKind::Spring,
            a: a.map_or(Anchor::Ground, Anchor::Dof),
            b: b.map_or(Anchor::Ground, Anchor::Dof),
            label: "ℓ²".into(),
        }));
        Layout {
            scene: None,
            dofs: (0..n)
                .map(|i| Dof {
                    name: format!("block {}", i + 1),
                    symbol: format!("U{}", subscript(i + 1)),
                    unit: String::new(),
                    mass: 1.0,
                })
                .collect(),
            contacts: (0..n)
                .map(|i| ContactInfo {
                    name: format!("block {} on the ground", i + 1),
                    dof: i,
                    surface: Surface::Ground,
                })
                .collect(),
            links,
            driver_speed_mps: Some(self.plate_speed),
            substrate: None,
        }
    }

    fn derived(&self) -> Vec<Derived> {
        vec![
            Derived {
                label: "loading time 1/ν",
                value: 1.0 / self.plate_speed,
                unit: "",
            },
            Derived {
                label: "ℓ²",
                value: self.stiffness_ratio * self.stiffness_ratio,
                unit: "",
            },
        ]
    }

    /// Chains longer than the switch-row limit run with `integrator: Auto` by the active-set
    /// scheme ([`ActiveSetRun`]), which integrates only the slipping blocks.
    fn engine(&self, settings: &DriverSettings) -> Option<Result<Box<dyn Engine>, SimError>> {
        let long = self.n_blocks() > crate::systems::chain::SWITCH_ROWS_MAX_BLOCKS;
        (long && settings.method == Method::Auto).then(|| {
            ActiveSetRun::new(self.clone(), settings.rtol, settings.output_interval_s)
                .map(|r| Box::new(r) as Box<dyn Engine>)
        })
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = CarlsonLanger::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

/// Work integrals: the plate's input and the friction work.
const N_WORK: usize = 2;

/// The Carlson–Langer model ([module docs](self)).
#[derive(Clone, Debug)]
pub struct CarlsonLanger {
    params: CarlsonLangerParams,
    n: usize,
    neighbours: Vec<(Option<usize>, Option<usize>)>,
    /// Whether each block sticks.
    stuck: Vec<bool>,
    initial_energy: f64,
}

impl CarlsonLanger {
    /// The model, every block stuck until initialised.
    pub fn new(params: CarlsonLangerParams) -> Self {
        let n = params.n_blocks();
        let neighbours = (0..n).map(|i| params.ends.neighbours(i, n)).collect();
        Self {
            params,
            n,
            neighbours,
            stuck: vec![true; n],
            initial_energy: 0.0,
        }
    }

    /// Initial state at `τ = 0`: the pattern's displacements, every block at rest, no work.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.dim()];
        let u0 = self
            .params
            .initial_pattern
            .positions_m(self.n, self.params.initial_spread);
        for (j, u) in u0.into_iter().enumerate() {
            y[2 * j] = u;
        }
        y
    }

    /// Position `U_j = y_j + ν·τ` on the ground.
    #[inline]
    fn position(&self, t: f64, y: &[f64], j: usize) -> f64 {
        y[2 * j] + self.params.plate_speed * t
    }

    /// Elastic force on block `j`: coupling `ℓ²·(U_{j+1} − 2U_j + U_{j−1})` (the frame at
    /// `U = 0` for fixed ends) and leaf spring `−(U_j − ν·τ) = −y_j`.
    #[inline]
    fn spring_force(&self, t: f64, y: &[f64], j: usize) -> f64 {
        let yj = y[2 * j];
        let (l, r) = self.neighbours[j];
        let side = |k: Option<usize>| match k {
            Some(k) => y[2 * k] - yj,
            None if self.params.ends.ties_to_frame() => -self.position(t, y, j),
            None => 0.0,
        };
        let l2 = self.params.stiffness_ratio * self.params.stiffness_ratio;
        l2 * (side(l) + side(r)) - yj
    }

    /// Friction on block `j` [force units of F₀]: the holding force while stuck, `φ(U̇)` while
    /// slipping.
    fn friction_on(&self, t: f64, y: &[f64], j: usize) -> f64 {
        if self.stuck[j] {
            self.spring_force(t, y, j)
        } else {
            self.params.friction(y[2 * j + 1].max(0.0))
        }
    }

    fn energies(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let l2 = self.params.stiffness_ratio * self.params.stiffness_ratio;
        let mut kinetic = 0.0;
        let mut stored = 0.0;
        for j in 0..self.n {
            kinetic += 0.5 * y[2 * j + 1] * y[2 * j + 1];
            stored += 0.5 * y[2 * j] * y[2 * j];
        }
        for (a, b) in self.params.ends.springs(self.n) {
            let ua = a.map_or(0.0, |a| self.position(t, y, a));
            let ub = b.map_or(0.0, |b| self.position(t, y, b));
            stored += 0.5 * l2 * (ub - ua) * (ub - ua);
        }
        (kinetic, stored)
    }

    fn choose_modes(&mut self, t: f64, y: &mut [f64], fresh: bool) {
        for j in 0..self.n {
            let f = self.spring_force(t, y, j);
            let v = y[2 * j + 1];
            let stick = if fresh || self.stuck[j] {
                v <= 0.0 && f <= 1.0
            } else {
                v <= 0.0 && f <= self.params.friction(0.0)
            };
            self.stuck[j] = stick;
            if stick {
                y[2 * j + 1] = 0.0;
            }
        }
        let (ek, es) = self.energies(t, y);
        let q = 2 * self.n;
        self.initial_energy = ek + es - (y[q] + y[q + 1]);
    }
}

impl Model for CarlsonLanger {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2 * self.n + N_WORK
    }

    fn n_quadratures(&self) -> usize {
        N_WORK
    }

    fn state_names(&self) -> Vec<String> {
        let mut v: Vec<String> = (1..=self.n)
            .flat_map(|k| [format!("y{k}"), format!("dU{k}")])
            .collect();
        v.extend(["w_plate", "w_friction"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        // Slips are of order 2σ/ν·ν = 2σ; velocities of order σ.
        let s = self.params.sigma.max(1e-3);
        scales[..2 * self.n].iter_mut().for_each(|x| *x = s);
        scales[2 * self.n..].iter_mut().for_each(|x| *x = 1.0);
    }

    /// Free and periodic chains do not see the time: the leaf springs' stretch is the state.
    /// Fixed ends tie the chain to the ground while the plate moves.
    fn is_autonomous(&self) -> bool {
        !self.params.ends.ties_to_frame()
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.choose_modes(t, y, true);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = CarlsonLangerParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.n_blocks() != self.n || params.ends != self.params.ends {
            return Err(Restart::Changed(
                "the number of blocks or the ends changed".into(),
            ));
        }
        self.params = params.clone();
        Ok(())
    }

    /// A stuck block is at rest on the ground (`U̇_j = 0`).
    fn project(&self, _t: f64, y: &mut [f64]) {
        for j in 0..self.n {
            if self.stuck[j] {
                y[2 * j + 1] = 0.0;
            }
        }
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.choose_modes(t, y, false);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let nu = self.params.plate_speed;
        let (mut w_p, mut w_f) = (0.0, 0.0);
        for j in 0..self.n {
            w_p -= nu * y[2 * j];
            if self.stuck[j] {
                dy[2 * j] = -nu;
                dy[2 * j + 1] = 0.0;
                continue;
            }
            let v = y[2 * j + 1];
            let phi = self.params.friction(v.max(0.0));
            dy[2 * j] = v - nu;
            dy[2 * j + 1] = self.spring_force(t, y, j) - phi;
            w_f -= phi * v;
        }
        dy[2 * self.n] = w_p;
        dy[2 * self.n + 1] = w_f;
    }

    fn n_events(&self) -> usize {
        self.n
    }

    /// Stuck: `1 − F_j` (break-away when the force reaches the threshold); slipping: `U̇_j`
    /// (stick when the block comes to rest).
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        for j in 0..self.n {
            g[j] = if self.stuck[j] {
                1.0 - self.spring_force(t, y, j)
            } else {
                y[2 * j + 1]
            };
        }
    }

    fn apply_event(&mut self, index: usize, _t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let Some(stuck) = self.stuck.get_mut(index) else {
            return Ok(());
        };
        if *stuck {
            *stuck = false;
        } else {
            *stuck = true;
            y[2 * index + 1] = 0.0;
        }
        Ok(())
    }

    /// Dimensionless time τ = ω_p·t.
    fn time_column(&self) -> Column {
        Column::new("t", "").role(Role::Time).symbol("τ")
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = Vec::with_capacity(5 * self.n + 6);
        for j in 0..self.n {
            let (k, s) = (j + 1, subscript(j + 1));
            cols.push(
                Column::new(format!("U{k}"), "")
                    .role(Role::Position(j))
                    .symbol(format!("U{s}")),
            );
            cols.push(
                Column::new(format!("dU{k}"), "")
                    .role(Role::Velocity(j))
                    .symbol(format!("U̇{s}")),
            );
        }
        for j in 0..self.n {
            let (k, s) = (j + 1, subscript(j + 1));
            cols.extend([
                Column::new(format!("slip_rate{k}"), "")
                    .role(Role::SlipVelocity(j))
                    .symbol(format!("U̇{s}")),
                Column::new(format!("friction{k}"), "")
                    .role(Role::FrictionForce(j))
                    .symbol(format!("φ{s}")),
                Column::new(format!("stick{k}"), "")
                    .role(Role::Stick(j))
                    .symbol(format!("stick{s}")),
            ]);
        }
        cols.extend([
            Column::new("e_kin", "").role(Role::KineticEnergy).symbol("E_kin"),
            Column::new("e_spring", "").role(Role::StoredEnergy).symbol("E_spring"),
            Column::new("w_friction", "")
                .role(Role::FrictionWork(None))
                .symbol("W_friction"),
            Column::new("w_plate", "").role(Role::InputWork).symbol("W_plate"),
            Column::new("energy_error", "").role(Role::EnergyError).symbol("ΔE"),
        ]);
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let n = self.n;
        for j in 0..n {
            row[2 * j] = self.position(t, y, j);
            row[2 * j + 1] = y[2 * j + 1];
        }
        let mut k = 2 * n;
        for j in 0..n {
            row[k] = y[2 * j + 1];
            row[k + 1] = self.friction_on(t, y, j);
            row[k + 2] = f64::from(u8::from(self.stuck[j]));
            k += 3;
        }
        let (ek, es) = self.energies(t, y);
        let (w_p, w_f) = (y[2 * n], y[2 * n + 1]);
        row[k] = ek;
        row[k + 1] = es;
        row[k + 2] = w_f;
        row[k + 3] = w_p;
        row[k + 4] = ek + es - (self.initial_energy + w_p + w_f);
    }

    fn section_names(&self) -> Vec<String> {
        vec!["block 1 comes to rest (U̇₁ = 0)".into()]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = -y[1];
    }

    fn records_switch_rows(&self) -> bool {
        self.n <= crate::systems::chain::SWITCH_ROWS_MAX_BLOCKS
    }

    fn prefers_implicit(&self) -> bool {
        false
    }
}
