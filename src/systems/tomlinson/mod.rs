//! Prandtl–Tomlinson model of atomic-scale friction (MODELS §3.3): an AFM tip of mass `m` in
//! the periodic potential of a crystal surface, `V(x) = −U₀·cos(2πx/a)`, pulled by a
//! cantilever spring `k` whose support moves at speed `v`, damped by `γ` into the substrate
//! and, at a temperature `T > 0`, kicked by its thermal noise:
//! ```text
//! m·ẍ = −(2πU₀/a)·sin(2πx/a) + k·(X(t) − x) − γ·ẋ + √(2γk_BT)·ξ(t),   X(t) = v·t
//! F_L = k·(X − x)   (the lateral force an AFM measures)
//! η = 4π²U₀/(k·a²),  ζ = γ/(2mω₀),  ṽ = 2πv/(aω₀),  ω₀ = √(k/m)
//! ```
//! `η > 1`: the tip has several equilibria for some support positions and moves by atomic
//! stick–slip; `η < 1`: it slides smoothly.
//!
//! The state is `[u, u̇, W_drive, W_substrate]` with `u = x − X(t)` the tip's lag behind the
//! support, so that the equations are periodic in time with the lattice period of the support,
//! `a/v` (the stroboscopic Poincaré section), and a stick–slip cycle is a periodic orbit.
//! Friction force on the tip: `F_f = −V′(x) − γẋ` (the substrate's corrugation and its
//! dissipation together; its mean is `−⟨F_L⟩`).
//!
//! At `T = 0` the generic driver integrates the model (Dormand–Prince); at `T > 0` the run is
//! Langevin dynamics by BAOAB ([`BaoabRun`](crate::integrate::BaoabRun)). Slips are counted by
//! the well the tip occupies: it leaves well `n` when it crosses a barrier top
//! `(n ± ½)·a` and belongs to well `n′` once within `a/4` of its bottom (hysteresis, so thermal
//! rattling near a barrier is not a slip); the stick flag is 0 in between.

pub mod quasi_static;

use std::f64::consts::{PI, TAU};

use super::{
    Anchor, Built, ConfigOf, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Restart,
    Substrate, Surface, SystemKind, SystemSpec, ThermalFriction, HeatBathKeys,
};
use crate::integrate::driver::DriverSettings;
use crate::integrate::{
    BOLTZMANN_J_PER_K, BaoabRun, Column, Engine, LangevinSystem, Model, Role, SimError,
};
use crate::laws::{LawConfig, NoiseParams};

/// Equation of motion shown in the window.
pub const EQUATION: &str = "m·ẍ = −(2πU₀/a)·sin(2πx/a) + k·(v·t − x) − γ·ẋ + √(2γk_BT)·ξ(t),  \
     F_L = k·(v·t − x),  η = 4π²U₀/(k·a²)";

/// Joules per electronvolt (exact).
pub const J_PER_EV: f64 = 1.602_176_634e-19;

/// Steps per period of the fastest oscillation (in the bottom of a well) taken by BAOAB.
const STEPS_PER_PERIOD: f64 = 50.0;

crate::param_struct! {
    /// Prandtl–Tomlinson parameters. Defaults: an AFM tip on a crystal with a 0.3 nm lattice,
    /// a 2 N/m cantilever and η = 3 (single slips).
    pub struct TomlinsonParams {
        /// Lattice period `a` of the surface potential.
        lattice: "lattice" = 3e-10, "Lattice period", "a", "m", [2e-11, 5e-9], Log;
        /// Corrugation amplitude `U₀` (the barrier between wells is 2U₀).
        corrugation: "corrugation" = 1.3678e-20, "Corrugation amplitude", "U₀", "J", [1e-23, 1e-17], Log;
        /// Lateral stiffness `k` of the cantilever (and contact).
        stiffness: "stiffness" = 2.0, "Cantilever stiffness", "k", "N/m", [1e-3, 1e3], Log;
        /// Effective mass `m` of the tip.
        mass: "mass" = 1e-10, "Tip mass", "m", "kg", [1e-16, 1e-4], Log;
        /// Damping `γ` of the tip's motion into the substrate (also the bath coupling).
        damping: "damping" = 1.4142e-5, "Damping", "γ", "kg/s", [1e-12, 1.0], Log;
        /// Speed `v` of the cantilever's support.
        speed: "speed" = 1e-7, "Support speed", "v", "m/s", [1e-12, 1e-2], Log;
        /// Temperature of the substrate's heat bath (0: no thermal noise).
        temperature: "temperature" = 0.0, "Temperature", "T", "K", [0.0, 2000.0], Linear;
        /// Seed of the thermal noise (same seed, same run).
        seed: "seed" = 1.0, "Noise seed", "seed", "", [0.0, 1e9], Linear, integer, restart;
    }
}

impl TomlinsonParams {
    /// Natural angular frequency `ω₀ = √(k/m)` [rad/s].
    pub fn omega0(&self) -> f64 {
        (self.stiffness / self.mass).sqrt()
    }

    /// Whether the damping makes the equations stiff: `γ/m` above
    /// [`damping_is_stiff`](crate::integrate::damping_is_stiff) times the highest frequency
    /// `√((k + 4π²U₀/a²)/m)` (cantilever and the substrate's steepest curvature).
    pub fn overdamped(&self) -> bool {
        let omega_max = (self.stiffness * (1.0 + self.eta()) / self.mass).sqrt();
        crate::integrate::damping_is_stiff(self.damping / self.mass, omega_max)
    }

    /// Corrugation parameter `η = 4π²U₀/(k·a²)`.
    pub fn eta(&self) -> f64 {
        4.0 * PI * PI * self.corrugation / (self.stiffness * self.lattice * self.lattice)
    }

    /// Damping ratio `ζ = γ/(2mω₀)`.
    pub fn zeta(&self) -> f64 {
        self.damping / (2.0 * self.mass * self.omega0())
    }

    /// Reduced speed `ṽ = 2πv/(aω₀)`.
    pub fn reduced_speed(&self) -> f64 {
        TAU * self.speed / (self.lattice * self.omega0())
    }

    /// Substrate force on the tip at `x`, `−V′(x) = −(2πU₀/a)·sin(2πx/a)` [N].
    #[inline]
    pub fn substrate_force(&self, x: f64) -> f64 {
        -TAU * self.corrugation / self.lattice * (TAU * x / self.lattice).sin()
    }

    /// Substrate potential `U₀·(1 − cos(2πx/a))` [J] (zero at the wells' bottoms).
    #[inline]
    pub fn potential(&self, x: f64) -> f64 {
        self.corrugation * (1.0 - (TAU * x / self.lattice).cos())
    }

    /// Speed above which a tip out of its well counts as slipping, `3·|v| + 3·√(k_BT/m)`.
    pub fn slip_speed_threshold(&self) -> f64 {
        crate::integrate::langevin::slip_speed_threshold(self.speed, self.temperature, self.mass)
    }

    /// Support travel per lattice period `a/v` [s].
    pub fn lattice_time_s(&self) -> f64 {
        self.lattice / self.speed.abs().max(f64::MIN_POSITIVE)
    }

    /// Largest BAOAB step: a fiftieth of the period of the stiffest oscillation,
    /// `ω_max = ω₀·√(1 + η)` at the bottom of a well.
    pub fn max_time_step_s(&self) -> f64 {
        let omega_max = self.omega0() * (1.0 + self.eta()).sqrt();
        TAU / omega_max / STEPS_PER_PERIOD
    }
}

impl SystemKind for TomlinsonParams {
    const NAME: &'static str = "Prandtl–Tomlinson tip (atomic friction)";
    const EQUATION: &'static str = EQUATION;

    /// The friction is the substrate's potential and damping: no law from the preset.
    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        Layout {
            scene: None,
            dofs: vec![Dof {
                name: "tip".into(),
                symbol: "x".into(),
                unit: "m".into(),
                mass: self.mass,
            }],
            contacts: vec![ContactInfo {
                name: "tip on the crystal".into(),
                dof: 0,
                surface: Surface::Lattice,
            }],
            links: vec![Link {
                kind: LinkKind::Spring,
                a: Anchor::Driver,
                b: Anchor::Dof(0),
                label: "k".into(),
            }],
            driver_speed_mps: Some(self.speed),
            substrate: Some(Substrate {
                period_m: self.lattice,
                amplitude_j: self.corrugation,
            }),
        }
    }

    /// The support advances one lattice period in `a/v`: the equations repeat.
    fn forcing_period_s(&self) -> Option<f64> {
        (self.speed != 0.0).then(|| self.lattice_time_s())
    }

    fn derived(&self) -> Vec<Derived> {
        let qs = quasi_static::QuasiStatic::new(self);
        let mut d = vec![
            Derived {
                label: "η",
                value: self.eta(),
                unit: "",
            },
            Derived {
                label: "ζ",
                value: self.zeta(),
                unit: "",
            },
            Derived {
                label: "ṽ",
                value: self.reduced_speed(),
                unit: "",
            },
            Derived {
                label: "f₀ = ω₀/2π",
                value: self.omega0() / TAU,
                unit: "Hz",
            },
            Derived {
                label: "U₀",
                value: self.corrugation / J_PER_EV,
                unit: "eV",
            },
            Derived {
                label: "a/v",
                value: self.lattice_time_s(),
                unit: "s",
            },
        ];
        if let Some(slip) = qs.slip_point() {
            d.push(Derived {
                label: "F_L at slip (T = 0)",
                value: slip.force_n,
                unit: "N",
            });
        }
        if self.temperature > 0.0 {
            d.push(Derived {
                label: "k_BT/U₀",
                value: BOLTZMANN_J_PER_K * self.temperature / self.corrugation,
                unit: "",
            });
        }
        d
    }

    fn is_stochastic(&self) -> bool {
        self.temperature > 0.0
    }

    fn heat_bath_keys(&self) -> Option<HeatBathKeys> {
        Some(HeatBathKeys {
            speed: "speed",
            temperature: "temperature",
        })
    }

    /// Drag `γ·v` of the tip; the athermal friction is the quasi-static one (energy released
    /// by a slip per lattice period).
    fn thermal_friction(&self) -> Option<ThermalFriction> {
        Some(ThermalFriction {
            keys: self.heat_bath_keys()?,
            drag_kg_per_s: self.damping,
            athermal_friction_n: quasi_static::QuasiStatic::new(self).athermal_friction_n(),
        })
    }

    /// Above zero kelvin the run is Langevin dynamics by BAOAB, whatever the integrator.
    fn engine(&self, settings: &DriverSettings) -> Option<Result<Box<dyn Engine>, SimError>> {
        (self.temperature > 0.0).then(|| {
            let model = Tomlinson::new(self.clone());
            let y0 = model.initial_state();
            BaoabRun::new(model, y0, settings.output_interval_s)
                .map(|r| Box::new(r) as Box<dyn Engine>)
        })
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = Tomlinson::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

/// Indices of the work integrals in the state.
const W_DRIVE: usize = 2;
const W_SUBSTRATE: usize = 3;

/// The Prandtl–Tomlinson model ([module docs](self)).
#[derive(Clone, Debug)]
pub struct Tomlinson {
    params: TomlinsonParams,
    /// The support's position `X_ref` at `t_ref` (rebased when the speed changes live).
    support_ref: (f64, f64),
    /// Speed before a live change, until [`Model::resume`] rebases the support.
    rebase_speed: Option<f64>,
    /// The well the tip occupies (hysteretic; see the module docs).
    well: i64,
    initial_energy: f64,
}

impl Tomlinson {
    /// The model with the tip at rest in the well under the support.
    pub fn new(params: TomlinsonParams) -> Self {
        Self {
            params,
            support_ref: (0.0, 0.0),
            rebase_speed: None,
            well: 0,
            initial_energy: 0.0,
        }
    }

    /// Its parameters.
    pub fn params(&self) -> &TomlinsonParams {
        &self.params
    }

    /// Initial state: tip and support at the bottom of well 0, at rest, no work.
    pub fn initial_state(&self) -> Vec<f64> {
        vec![0.0; 4]
    }

    /// Support position `X(t)` [m].
    #[inline]
    pub fn support(&self, t: f64) -> f64 {
        self.support_ref.1 + self.params.speed * (t - self.support_ref.0)
    }

    /// Tip position `x = u + X(t)` [m].
    #[inline]
    fn tip(&self, t: f64, y: &[f64]) -> f64 {
        y[0] + self.support(t)
    }

    /// The well a tip at `x` belongs to, given the one it occupied (hysteresis: within `a/4`
    /// of another well's bottom it has moved there).
    fn next_well(&self, x: f64) -> i64 {
        let a = self.params.lattice;
        let n = (x / a).round();
        if (x - n * a).abs() < 0.25 * a {
            n as i64
        } else {
            self.well
        }
    }

    fn energies(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let p = &self.params;
        let xdot = y[1] + p.speed;
        let kinetic = 0.5 * p.mass * xdot * xdot;
        let stored = p.potential(self.tip(t, y)) + 0.5 * p.stiffness * y[0] * y[0];
        (kinetic, stored)
    }

    fn start_energy_account(&mut self, t: f64, y: &[f64]) {
        let (k, s) = self.energies(t, y);
        self.initial_energy = k + s - (y[W_DRIVE] + y[W_SUBSTRATE]);
    }
}

impl Model for Tomlinson {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        4
    }

    fn n_quadratures(&self) -> usize {
        2
    }

    fn state_names(&self) -> Vec<String> {
        ["u", "du", "w_drive", "w_substrate"].map(String::from).to_vec()
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let p = &self.params;
        scales[0] = p.lattice;
        scales[1] = p.lattice * p.omega0();
        scales[2] = p.corrugation;
        scales[3] = p.corrugation;
    }

    /// Explicit unless the tip is overdamped far beyond its oscillation frequency.
    fn prefers_implicit(&self) -> bool {
        self.params.overdamped()
    }

    fn time_scale_s(&self) -> f64 {
        1.0 / self.params.omega0()
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.support_ref = (t, self.support(t));
        self.well = (self.tip(t, y) / self.params.lattice).round() as i64;
        self.start_energy_account(t, y);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = TomlinsonParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if (params.temperature > 0.0) != (self.params.temperature > 0.0) {
            return Err(Restart::Changed(
                "thermal noise switched on or off: the run changes integrator".into(),
            ));
        }
        self.reconfigure_langevin(spec)
    }

    /// Rebases the support after a speed change so that neither it nor the tip jumps;
    /// restarts the energy account (the parameters changed).
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        if let Some(old) = self.rebase_speed.take() {
            let x_support = self.support_ref.1 + old * (t - self.support_ref.0);
            self.support_ref = (t, x_support);
            // The tip's own velocity ẋ = u̇ + v is what carries on.
            y[1] += old - self.params.speed;
        }
        self.start_energy_account(t, y);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let (u, du) = (y[0], y[1]);
        let xdot = du + p.speed;
        let f = p.substrate_force(self.tip(t, y)) - p.stiffness * u - p.damping * xdot;
        dy[0] = du;
        dy[1] = f / p.mass;
        dy[W_DRIVE] = -p.stiffness * u * p.speed;
        dy[W_SUBSTRATE] = -p.damping * xdot * xdot;
    }

    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        let q = TAU * self.tip(t, y) / p.lattice;
        let curvature = TAU * TAU * p.corrugation / (p.lattice * p.lattice) * q.cos();
        let xdot = y[1] + p.speed;
        jac.copy_from_slice(&[
            0.0,
            1.0,
            -(curvature + p.stiffness) / p.mass,
            -p.damping / p.mass,
            -p.stiffness * p.speed,
            0.0,
            0.0,
            -2.0 * p.damping * xdot,
        ]);
        true
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.well = self.next_well(self.tip(t, y));
        false
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m").role(Role::Position(0)).symbol("x"),
            Column::new("v_tip", "m/s")
                .role(Role::Velocity(0))
                .symbol("ẋ"),
            Column::new("v_slip", "m/s")
                .role(Role::SlipVelocity(0))
                .symbol("v_slip"),
            Column::new("f_friction", "N")
                .role(Role::FrictionForce(0))
                .symbol("F_f"),
            Column::new("stick", "").role(Role::Stick(0)).symbol("stick"),
            Column::new("x_support", "m")
                .role(Role::DriverPosition)
                .symbol("X"),
            Column::new("f_lateral", "N")
                .role(Role::SpringForce(0))
                .symbol("F_L"),
            Column::new("well", "").symbol("n"),
        ];
        cols.extend(super::energy_columns::energy_columns_bath());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let p = &self.params;
        let x = self.tip(t, y);
        let xdot = y[1] + p.speed;
        let well = self.next_well(x);
        let in_well = (x - well as f64 * p.lattice).abs() < 0.5 * p.lattice
            || xdot.abs() <= p.slip_speed_threshold();
        let (kinetic, stored) = self.energies(t, y);
        let error = kinetic + stored - (self.initial_energy + y[W_DRIVE] + y[W_SUBSTRATE]);
        row.copy_from_slice(&[
            x,
            xdot,
            xdot,
            p.substrate_force(x) - p.damping * xdot,
            f64::from(u8::from(in_well)),
            self.support(t),
            -p.stiffness * y[0],
            well as f64,
            kinetic,
            stored,
            y[W_SUBSTRATE],
            y[W_DRIVE],
            error,
        ]);
    }
}

impl LangevinSystem for Tomlinson {
    fn n_dofs(&self) -> usize {
        1
    }

    fn mass_kg(&self, _i: usize) -> f64 {
        self.params.mass
    }

    fn damping_kg_per_s(&self, _i: usize) -> f64 {
        self.params.damping
    }

    /// `u̇ = ẋ − v`: the substrate's bath moves at `−v` in the support's frame.
    fn bath_velocity_mps(&self, _i: usize) -> f64 {
        -self.params.speed
    }

    fn temperature_k(&self) -> f64 {
        self.params.temperature
    }

    fn forces(&self, t: f64, y: &[f64], f: &mut [f64]) {
        let p = &self.params;
        f[0] = p.substrate_force(self.tip(t, y)) - p.stiffness * y[0];
    }

    fn drive_power_w(&self, _t: f64, y: &[f64]) -> f64 {
        -self.params.stiffness * y[0] * self.params.speed
    }

    fn work_indices(&self) -> (usize, usize) {
        (W_DRIVE, W_SUBSTRATE)
    }

    fn max_time_step_s(&self) -> f64 {
        self.params.max_time_step_s()
    }

    fn noise_seed(&self) -> u64 {
        self.params.seed.round().max(0.0) as u64
    }

    fn track(&mut self, t: f64, y: &[f64]) {
        self.well = self.next_well(self.tip(t, y));
    }

    fn reconfigure_langevin(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = TomlinsonParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.speed != self.params.speed {
            self.rebase_speed = Some(self.params.speed);
        }
        self.params = params.clone();
        Ok(())
    }
}
