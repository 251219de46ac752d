//! The FKT chain as a model of the generic driver and as a Langevin system (see the
//! [module docs](super) for the equations and the state).

use std::f64::consts::TAU;

use super::super::chain::subscript;
use super::super::{ConfigOf, Restart, SystemSpec};
use super::FktParams;
use crate::integrate::{Column, LangevinSystem, Model, Role, SimError};

/// The Frenkel–Kontorova–Tomlinson chain ([module docs](super)).
#[derive(Clone, Debug)]
pub struct Fkt {
    params: FktParams,
    n: usize,
    /// Whether the body is a degree of freedom (state `w`, `ẇ` after the atoms).
    body: bool,
    /// The drive's position `X_d` at `t_ref` (rebased when the speed changes live).
    drive_ref: (f64, f64),
    rebase_speed: Option<f64>,
    /// The well each atom occupies (hysteretic, as in the Tomlinson model).
    wells: Vec<i64>,
    initial_energy: f64,
}

impl Fkt {
    /// The chain with every atom at its place on the body, at rest.
    pub fn new(params: FktParams) -> Self {
        let n = params.n_atoms();
        Self {
            body: params.body_moves(),
            params,
            n,
            drive_ref: (0.0, 0.0),
            rebase_speed: None,
            wells: vec![0; n],
            initial_energy: 0.0,
        }
    }

    /// Its parameters.
    pub fn params(&self) -> &FktParams {
        &self.params
    }

    /// Number of mechanical degrees of freedom (atoms, and the body when it moves).
    fn n_mech(&self) -> usize {
        self.n + usize::from(self.body)
    }

    fn w_drive(&self) -> usize {
        2 * self.n_mech()
    }

    /// Initial state: every atom at its place `j·b` on the body, at rest.
    pub fn initial_state(&self) -> Vec<f64> {
        vec![0.0; self.dim()]
    }

    /// Drive position `X_d(t)` [m].
    #[inline]
    pub fn drive(&self, t: f64) -> f64 {
        self.drive_ref.1 + self.params.speed * (t - self.drive_ref.0)
    }

    /// Body position offset `w = X − X_d` (0 for a kinematic body).
    #[inline]
    fn w(&self, y: &[f64]) -> f64 {
        if self.body { y[2 * self.n] } else { 0.0 }
    }

    /// Position of atom `j` [m].
    #[inline]
    pub fn atom(&self, t: f64, y: &[f64], j: usize) -> f64 {
        y[2 * j] + self.drive(t) + j as f64 * self.params.spacing_m()
    }

    /// Neighbours' displacement sum minus twice the atom's: the ring's coupling term.
    #[inline]
    fn laplacian(&self, y: &[f64], j: usize) -> f64 {
        let n = self.n;
        let left = y[2 * ((j + n - 1) % n)];
        let right = y[2 * ((j + 1) % n)];
        left + right - 2.0 * y[2 * j]
    }

    /// Substrate force on atom `j` at `x`, `−(2πU₀/a)·sin(2πx/a)` [N].
    #[inline]
    fn substrate(&self, x: f64) -> f64 {
        let p = &self.params;
        -TAU * p.corrugation / p.lattice * (TAU * x / p.lattice).sin()
    }

    /// The force the body needs to slide the layer, `Σ_j k_b·(X + j·b − x_j)` [N].
    pub fn friction_n(&self, y: &[f64]) -> f64 {
        let w = self.w(y);
        (0..self.n)
            .map(|j| self.params.body_stiffness * (w - y[2 * j]))
            .sum()
    }

    /// Elastic and substrate forces on the mechanical degrees of freedom (no damping).
    fn mech_forces(&self, t: f64, y: &[f64], f: &mut [f64]) {
        let p = &self.params;
        let w = self.w(y);
        for j in 0..self.n {
            f[j] = p.coupling * self.laplacian(y, j)
                + p.body_stiffness * (w - y[2 * j])
                + self.substrate(self.atom(t, y, j));
        }
        if self.body {
            f[self.n] = -p.drive_stiffness * w - self.friction_n(y);
        }
    }

    /// Force the drive exerts [N]: on the body through the drive spring, or whatever keeps a
    /// kinematic body moving.
    fn drive_force(&self, y: &[f64]) -> f64 {
        if self.body {
            -self.params.drive_stiffness * self.w(y)
        } else {
            self.friction_n(y)
        }
    }

    fn energies(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let p = &self.params;
        let v = p.speed;
        let mut kinetic = 0.0;
        let mut stored = 0.0;
        let w = self.w(y);
        for j in 0..self.n {
            let xdot = y[2 * j + 1] + v;
            kinetic += 0.5 * p.mass * xdot * xdot;
            let x = self.atom(t, y, j);
            stored += p.corrugation * (1.0 - (TAU * x / p.lattice).cos());
            let d = y[2 * ((j + 1) % self.n)] - y[2 * j];
            stored += 0.5 * p.coupling * d * d;
            stored += 0.5 * p.body_stiffness * (w - y[2 * j]).powi(2);
        }
        if self.body {
            let xdot = y[2 * self.n + 1] + v;
            kinetic += 0.5 * p.body_mass * xdot * xdot;
            stored += 0.5 * p.drive_stiffness * w * w;
        }
        (kinetic, stored)
    }

    fn start_energy_account(&mut self, t: f64, y: &[f64]) {
        let (k, s) = self.energies(t, y);
        let i = self.w_drive();
        self.initial_energy = k + s - (y[i] + y[i + 1]);
    }

    fn track_wells(&mut self, t: f64, y: &[f64]) {
        let a = self.params.lattice;
        for j in 0..self.n {
            let x = self.atom(t, y, j);
            let m = (x / a).round();
            if (x - m * a).abs() < 0.25 * a {
                self.wells[j] = m as i64;
            }
        }
    }
}

impl Model for Fkt {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2 * self.n_mech() + 2
    }

    fn n_quadratures(&self) -> usize {
        2
    }

    fn state_names(&self) -> Vec<String> {
        let mut v: Vec<String> = (1..=self.n)
            .flat_map(|k| [format!("p{k}"), format!("dp{k}")])
            .collect();
        if self.body {
            v.extend(["w", "dw"].map(String::from));
        }
        v.extend(["w_drive", "w_substrate"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let p = &self.params;
        let omega = (p.body_stiffness / p.mass).sqrt();
        for (i, s) in scales.iter_mut().enumerate() {
            *s = if i >= self.w_drive() {
                p.corrugation
            } else if i % 2 == 0 {
                p.lattice
            } else {
                p.lattice * omega
            };
        }
    }

    /// Explicit unless the atoms are overdamped far beyond their oscillation frequency.
    fn prefers_implicit(&self) -> bool {
        self.params.overdamped()
    }

    fn time_scale_s(&self) -> f64 {
        self.params.max_time_step_s() * 50.0 / TAU
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.drive_ref = (t, self.drive(t));
        let a = self.params.lattice;
        for j in 0..self.n {
            self.wells[j] = (self.atom(t, y, j) / a).round() as i64;
        }
        self.start_energy_account(t, y);
        Ok(())
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = FktParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if (params.temperature > 0.0) != (self.params.temperature > 0.0) {
            return Err(Restart::Changed(
                "thermal noise switched on or off: the run changes integrator".into(),
            ));
        }
        self.reconfigure_langevin(spec)
    }

    /// Rebases the drive after a speed change so that nothing jumps; restarts the energy
    /// account.
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        if let Some(old) = self.rebase_speed.take() {
            let x = self.drive_ref.1 + old * (t - self.drive_ref.0);
            self.drive_ref = (t, x);
            for i in 0..self.n_mech() {
                y[2 * i + 1] += old - self.params.speed;
            }
        }
        self.start_energy_account(t, y);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let v = p.speed;
        let mut dissipation = 0.0;
        for j in 0..self.n {
            let pdot = y[2 * j + 1];
            let xdot = pdot + v;
            let f = p.coupling * self.laplacian(y, j)
                + p.body_stiffness * (self.w(y) - y[2 * j])
                + self.substrate(self.atom(t, y, j))
                - p.damping * xdot;
            dy[2 * j] = pdot;
            dy[2 * j + 1] = f / p.mass;
            dissipation += p.damping * xdot * xdot;
        }
        if self.body {
            let i = self.n;
            dy[2 * i] = y[2 * i + 1];
            dy[2 * i + 1] =
                (-p.drive_stiffness * self.w(y) - self.friction_n(y)) / p.body_mass;
        }
        let i = self.w_drive();
        dy[i] = self.drive_force(y) * v;
        dy[i + 1] = -dissipation;
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.track_wells(t, y);
        false
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = Vec::with_capacity(5 * self.n + 12);
        for j in 0..self.n {
            let (k, s) = (j + 1, subscript(j + 1));
            cols.push(
                Column::new(format!("x{k}"), "m")
                    .role(Role::Position(j))
                    .symbol(format!("x{s}")),
            );
            cols.push(
                Column::new(format!("v{k}"), "m/s")
                    .role(Role::Velocity(j))
                    .symbol(format!("ẋ{s}")),
            );
        }
        if self.body {
            cols.push(
                Column::new("x_body", "m")
                    .role(Role::Position(self.n))
                    .symbol("X"),
            );
            cols.push(
                Column::new("v_body", "m/s")
                    .role(Role::Velocity(self.n))
                    .symbol("Ẋ"),
            );
        }
        for j in 0..self.n {
            let (k, s) = (j + 1, subscript(j + 1));
            cols.push(
                Column::new(format!("v_slip{k}"), "m/s")
                    .role(Role::SlipVelocity(j))
                    .symbol(format!("v_slip,{s}")),
            );
            cols.push(
                Column::new(format!("f_friction{k}"), "N")
                    .role(Role::FrictionForce(j))
                    .symbol(format!("F_f,{s}")),
            );
            cols.push(
                Column::new(format!("stick{k}"), "")
                    .role(Role::Stick(j))
                    .symbol(format!("stick{s}")),
            );
        }
        cols.push(
            Column::new("x_drive", "m")
                .role(Role::DriverPosition)
                .symbol("X_d"),
        );
        cols.push(
            Column::new("f_lateral", "N")
                .role(Role::SpringForce(0))
                .symbol("F"),
        );
        cols.extend(super::super::energy_columns::energy_columns_bath());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let p = &self.params;
        let a = p.lattice;
        // As for the Tomlinson tip: out of its well and faster than the drive and than
        // thermal motion.
        let slip_speed =
            crate::integrate::langevin::slip_speed_threshold(p.speed, p.temperature, p.mass);
        let mut k = 0;
        let mut put = |v: f64| {
            row[k] = v;
            k += 1;
        };
        for j in 0..self.n {
            put(self.atom(t, y, j));
            put(y[2 * j + 1] + p.speed);
        }
        if self.body {
            put(self.w(y) + self.drive(t));
            put(y[2 * self.n + 1] + p.speed);
        }
        for j in 0..self.n {
            let x = self.atom(t, y, j);
            let xdot = y[2 * j + 1] + p.speed;
            let m = (x / a).round();
            let well = if (x - m * a).abs() < 0.25 * a {
                m
            } else {
                self.wells[j] as f64
            };
            put(xdot);
            put(self.substrate(x) - p.damping * xdot);
            let stuck = (x - well * a).abs() < 0.5 * a || xdot.abs() <= slip_speed;
            put(f64::from(u8::from(stuck)));
        }
        put(self.drive(t));
        put(self.drive_force(y));
        let (kinetic, stored) = self.energies(t, y);
        let i = self.w_drive();
        put(kinetic);
        put(stored);
        put(y[i + 1]);
        put(y[i]);
        put(kinetic + stored - (self.initial_energy + y[i] + y[i + 1]));
    }
}

impl LangevinSystem for Fkt {
    fn n_dofs(&self) -> usize {
        self.n_mech()
    }

    fn mass_kg(&self, i: usize) -> f64 {
        if i < self.n {
            self.params.mass
        } else {
            self.params.body_mass
        }
    }

    /// The atoms are damped into the substrate; the body is not.
    fn damping_kg_per_s(&self, i: usize) -> f64 {
        if i < self.n { self.params.damping } else { 0.0 }
    }

    fn bath_velocity_mps(&self, _i: usize) -> f64 {
        -self.params.speed
    }

    fn temperature_k(&self) -> f64 {
        self.params.temperature
    }

    fn forces(&self, t: f64, y: &[f64], f: &mut [f64]) {
        self.mech_forces(t, y, f);
    }

    fn drive_power_w(&self, _t: f64, y: &[f64]) -> f64 {
        self.drive_force(y) * self.params.speed
    }

    fn work_indices(&self) -> (usize, usize) {
        (self.w_drive(), self.w_drive() + 1)
    }

    fn max_time_step_s(&self) -> f64 {
        self.params.max_time_step_s()
    }

    fn noise_seed(&self) -> u64 {
        self.params.seed.round().max(0.0) as u64
    }

    fn track(&mut self, t: f64, y: &[f64]) {
        self.track_wells(t, y);
    }

    fn reconfigure_langevin(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = FktParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.n_atoms() != self.n
            || params.n_periods() != self.params.n_periods()
            || params.body_moves() != self.body
        {
            return Err(Restart::Changed(
                "the number of atoms, the periods or the drive changed".into(),
            ));
        }
        if params.speed != self.params.speed {
            self.rebase_speed = Some(self.params.speed);
        }
        self.params = params.clone();
        Ok(())
    }
}
