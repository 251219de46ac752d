//! Langevin dynamics at a temperature: masses in a potential (and driven springs) coupled to a
//! heat bath by viscous damping and white noise,
//! ```text
//! m_i·ẍ_i = f_i(t, x) − γ_i·ẋ_i + √(2·γ_i·k_B·T)·ξ_i(t),      ⟨ξ_i(t)·ξ_j(t′)⟩ = δ_ij·δ(t − t′)
//! ```
//! integrated by **BAOAB** (Leimkuhler & Matthews, Appl Math Res Express 2013:34; J Chem Phys
//! 138:174102). One step of size `h`:
//! ```text
//! B: v += (h/2)·f(t, x)/m        A: x += (h/2)·v, t += h/2
//! O: v = c·v + √((1 − c²)·k_B·T/m)·ζ,  c = exp(−γ·h/m),  ζ ~ N(0, 1)
//! A: x += (h/2)·v, t += h/2      B: v += (h/2)·f(t, x)/m
//! ```
//! Why BAOAB: the friction-and-noise part (O) is solved exactly (an Ornstein–Uhlenbeck step),
//! so the scheme is stable for any damping, from nearly Hamiltonian to overdamped, and with one
//! force evaluation per step it samples the configurational Boltzmann distribution with an
//! error of order h² (of order h⁴ in the high-friction limit), far better than Euler–Maruyama
//! (order h, and no correct limit for large γ) or the BBK/Langevin–Verlet splittings at the
//! same cost. At `T = 0` it is a second-order deterministic integrator with exact damping.
//!
//! Energy is accounted for as in the deterministic runs: the O half exchanges heat with the
//! bath (damping and noise together, one work column), the driver's power is integrated by the
//! trapezoidal rule, and the balance error reports the splitting error (order h²).
//!
//! The noise stream is the crate's seeded [`SplitMix64`](crate::util::rng::SplitMix64): a run
//! with the same seed and step reproduces bit for bit.

use super::driver::{SampleSink, Stats};
use super::{Column, Engine, Model, Role, SimError};
use crate::systems::{Restart, SystemSpec};
use crate::util::rng::SplitMix64;

/// Boltzmann constant [J/K] (exact since the 2019 SI).
pub const BOLTZMANN_J_PER_K: f64 = 1.380_649e-23;

/// Speed above which a particle out of its lattice well counts as slipping: faster than the
/// drive and than thermal motion, `3·|v| + 3·√(k_BT/m)` [m/s].
pub fn slip_speed_threshold(drive_mps: f64, temperature_k: f64, mass_kg: f64) -> f64 {
    3.0 * drive_mps.abs() + 3.0 * (BOLTZMANN_J_PER_K * temperature_k / mass_kg).sqrt()
}

/// A system of point masses the BAOAB scheme can run. Its [`Model`] state holds `[x_i, v_i]`
/// pairs for the degrees of freedom first, then anything else (work integrals) the system
/// keeps; [`Model::observe`] turns it into rows.
pub trait LangevinSystem: Model + Send {
    /// Number of degrees of freedom (the first `2·n` state components are `x_i, v_i` pairs).
    fn n_dofs(&self) -> usize;
    /// Mass of degree of freedom `i` [kg].
    fn mass_kg(&self, i: usize) -> f64;
    /// Damping of degree of freedom `i` towards the bath [kg/s] (0: no bath coupling).
    fn damping_kg_per_s(&self, i: usize) -> f64;
    /// Velocity of the bath's frame in the coordinates of degree of freedom `i` [m/s] (a
    /// coordinate that moves with the driver sees the substrate's bath moving backwards).
    fn bath_velocity_mps(&self, _i: usize) -> f64 {
        0.0
    }
    /// Bath temperature [K].
    fn temperature_k(&self) -> f64;
    /// Conservative and driving forces `f_i(t, x)` [N] at the state `y` (velocities ignored).
    fn forces(&self, t: f64, y: &[f64], f: &mut [f64]);
    /// Power the drivers put in at `(t, y)` [W].
    fn drive_power_w(&self, t: f64, y: &[f64]) -> f64;
    /// Indices in the state of the drivers' input work and of the heat taken from the bath.
    fn work_indices(&self) -> (usize, usize);
    /// Largest stable and accurate step [s] for these parameters.
    fn max_time_step_s(&self) -> f64;
    /// Seed of the noise.
    fn noise_seed(&self) -> u64;
    /// Updates discrete bookkeeping (the well a tip sits in) after each step.
    fn track(&mut self, _t: f64, _y: &[f64]) {}
    /// Takes new parameters in place (`Err` when the run must restart).
    fn reconfigure_langevin(&mut self, spec: &SystemSpec) -> Result<(), Restart>;
}

/// A Langevin run by BAOAB with samples every `dt_out`.
pub struct BaoabRun<S: LangevinSystem> {
    system: S,
    y: Vec<f64>,
    t: f64,
    h: f64,
    dt_out: f64,
    next_sample: u64,
    rng: SplitMix64,
    force: Vec<f64>,
    /// Per degree of freedom: 1/m, and the O step's decay `c = e^(−γh/m)` and kick size
    /// `√((1 − c²)·k_BT/m)` (constant between reconfigurations, so computed once).
    coefficients: Vec<Coefficients>,
    row: Vec<f64>,
    stats: Stats,
}

/// The constants of one degree of freedom's B and O steps.
#[derive(Clone, Copy, Debug, Default)]
struct Coefficients {
    inv_mass: f64,
    decay: f64,
    kick: f64,
    damped: bool,
}

fn coefficients<S: LangevinSystem>(system: &S, h: f64) -> Vec<Coefficients> {
    let kt = BOLTZMANN_J_PER_K * system.temperature_k();
    (0..system.n_dofs())
        .map(|i| {
            let (m, gamma) = (system.mass_kg(i), system.damping_kg_per_s(i));
            let decay = (-gamma * h / m).exp();
            Coefficients {
                inv_mass: 1.0 / m,
                decay,
                kick: if kt > 0.0 {
                    ((1.0 - decay * decay) * kt / m).sqrt()
                } else {
                    0.0
                },
                damped: gamma > 0.0,
            }
        })
        .collect()
}

/// The step for an output interval: the largest `dt_out / k` not above `h_max`, so that every
/// sample falls on a step.
pub fn step_for_output(h_max: f64, dt_out: f64) -> f64 {
    let k = (dt_out / h_max).ceil().max(1.0);
    dt_out / k
}

impl<S: LangevinSystem> BaoabRun<S> {
    /// A run from the system's initial state `y0` at `t = 0`.
    pub fn new(mut system: S, mut y0: Vec<f64>, dt_out: f64) -> Result<Self, SimError> {
        if !(dt_out.is_finite() && dt_out > 0.0) {
            return Err(SimError::Model {
                t_s: 0.0,
                message: format!("the output interval must be positive, not {dt_out}"),
            });
        }
        system.initialize(0.0, &mut y0)?;
        let h = step_for_output(system.max_time_step_s(), dt_out);
        let n = system.n_dofs();
        let width = system.columns().len() + 2;
        let mut run = Self {
            rng: SplitMix64::new(system.noise_seed()),
            system,
            y: y0,
            t: 0.0,
            h,
            dt_out,
            next_sample: 0,
            force: vec![0.0; n],
            coefficients: Vec::new(),
            row: vec![0.0; width],
            stats: Stats::default(),
        };
        run.coefficients = coefficients(&run.system, h);
        run.system.forces(0.0, &run.y, &mut run.force);
        Ok(run)
    }

    /// The step size [s].
    pub fn step_s(&self) -> f64 {
        self.h
    }

    /// The system.
    pub fn system(&self) -> &S {
        &self.system
    }

    /// One BAOAB step of size `h` (forces at the start already in `self.force`).
    fn step(&mut self) {
        let h = self.h;
        let (i_in, i_bath) = self.system.work_indices();
        let p0 = self.system.drive_power_w(self.t, &self.y);
        for (i, k) in self.coefficients.iter().enumerate() {
            self.y[2 * i + 1] += 0.5 * h * self.force[i] * k.inv_mass;
            self.y[2 * i] += 0.5 * h * self.y[2 * i + 1];
        }
        let mut heat = 0.0;
        for (i, k) in self.coefficients.iter().enumerate() {
            if !k.damped {
                continue;
            }
            // The velocity relative to the bath relaxes and takes the thermal kick.
            let v_bath = self.system.bath_velocity_mps(i);
            let w = self.y[2 * i + 1] - v_bath;
            let kick = if k.kick > 0.0 {
                k.kick * self.rng.normal()
            } else {
                0.0
            };
            let w_new = k.decay * w + kick;
            heat += 0.5 * (w_new * w_new - w * w) / k.inv_mass;
            self.y[2 * i + 1] = v_bath + w_new;
        }
        for i in 0..self.coefficients.len() {
            self.y[2 * i] += 0.5 * h * self.y[2 * i + 1];
        }
        let t1 = self.t + h;
        self.system.forces(t1, &self.y, &mut self.force);
        for (i, k) in self.coefficients.iter().enumerate() {
            self.y[2 * i + 1] += 0.5 * h * self.force[i] * k.inv_mass;
        }
        let p1 = self.system.drive_power_w(t1, &self.y);
        self.y[i_in] += 0.5 * h * (p0 + p1);
        self.y[i_bath] += heat;
        self.t = t1;
        self.system.track(t1, &self.y);
        self.stats.steps += 1;
        self.stats.rhs_evals += 1;
    }

    fn push_row(&mut self, sink: &mut dyn SampleSink) {
        let last = self.row.len() - 1;
        self.row[0] = self.t;
        self.system.observe(self.t, &self.y, &mut self.row[1..last]);
        self.row[last] = 0.0;
        sink.push(&self.row);
    }

    fn check_finite(&self) -> Result<(), SimError> {
        match self.y.iter().position(|v| !v.is_finite()) {
            None => Ok(()),
            Some(i) => Err(SimError::NonFinite {
                t_s: self.t,
                name: self
                    .system
                    .state_names()
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("y{i}")),
                value: self.y[i],
            }),
        }
    }

    fn sample_time(&self) -> f64 {
        self.next_sample as f64 * self.dt_out
    }
}

impl<S: LangevinSystem> Engine for BaoabRun<S> {
    fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        // Samples fall on steps: compare with half a step of slack against round-off.
        let slack = 0.5 * self.h;
        loop {
            while self.sample_time() <= self.t + slack && self.sample_time() <= t_stop + slack {
                self.push_row(sink);
                self.next_sample += 1;
            }
            if self.t + slack >= t_stop {
                break;
            }
            self.step();
            if self.stats.steps.is_multiple_of(1024) {
                self.check_finite()?;
            }
        }
        self.check_finite()
    }

    fn time_s(&self) -> f64 {
        self.t
    }

    fn state(&self) -> &[f64] {
        &self.y
    }

    fn columns(&self) -> Vec<Column> {
        let mut v = vec![self.system.time_column()];
        v.extend(self.system.columns());
        v.push(Column::new("event", "").role(Role::EventFlag));
        v
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        self.system.reconfigure_langevin(spec)?;
        self.system
            .resume(self.t, &mut self.y)
            .map_err(|e| Restart::Changed(e.to_string()))?;
        // A new step keeps samples on steps; the forces follow the new parameters.
        self.h = step_for_output(self.system.max_time_step_s(), self.dt_out);
        self.coefficients = coefficients(&self.system, self.h);
        self.system.forces(self.t, &self.y, &mut self.force);
        Ok(())
    }

    fn method_name(&self) -> &'static str {
        "BAOAB Langevin (fixed step)"
    }

    fn section_names(&self) -> Vec<String> {
        Vec::new()
    }

    fn track_sections(&mut self, _strobe_period_s: Option<f64>) {}

    fn stats(&self) -> Stats {
        self.stats
    }
}
