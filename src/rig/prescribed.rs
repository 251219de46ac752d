//! A friction law driven by an imposed relative motion `x(t)`, `v(t) = ẋ(t)`.
//!
//! State `[x, law states…]`; the force is read from the law. There is no mechanics, so the
//! holding force of set-valued laws is undefined (NaN): use state laws or smoothed laws here.

use super::DrivenLaw;
use crate::integrate::driver::DriverSettings;
use crate::integrate::{Column, Method, Model, SimError, Simulation};
use crate::laws::{Contact, FrictionLaw, Law};

/// An imposed relative motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// `v(t) = v₀`.
    ConstantVelocity {
        /// Sliding velocity [m/s].
        velocity_mps: f64,
    },
    /// `x(t) = A·sin(2πft)`.
    Sine {
        /// Displacement amplitude [m].
        amplitude_m: f64,
        /// Frequency [Hz].
        frequency_hz: f64,
    },
    /// `x(t) = A·(sin(2πft) + b·sin(2πnft))`: nested reversals for memory tests (MODELS §3.5
    /// test 4 uses `n = 3`, `b = ½`).
    SineWithHarmonic {
        /// Amplitude of the fundamental [m].
        amplitude_m: f64,
        /// Fundamental frequency [Hz].
        frequency_hz: f64,
        /// Harmonic number `n`.
        harmonic: f64,
        /// Relative amplitude `b` of the harmonic.
        ratio: f64,
    },
    /// `v(t) = v₀ + v₁·sin(2πft)` (frictional-lag test).
    VelocitySine {
        /// Mean velocity [m/s].
        mean_mps: f64,
        /// Velocity amplitude [m/s].
        amplitude_mps: f64,
        /// Frequency [Hz].
        frequency_hz: f64,
    },
}

impl Motion {
    /// Shortest period contained in the motion (∞ for constant velocity) [s].
    pub fn fastest_period_s(&self) -> f64 {
        match *self {
            Motion::ConstantVelocity { .. } => f64::INFINITY,
            Motion::Sine { frequency_hz, .. } | Motion::VelocitySine { frequency_hz, .. } => {
                1.0 / frequency_hz
            }
            Motion::SineWithHarmonic {
                frequency_hz,
                harmonic,
                ..
            } => 1.0 / (frequency_hz * harmonic.max(1.0)),
        }
    }

    /// Imposed velocity at `t` [m/s].
    pub fn velocity_mps(&self, t: f64) -> f64 {
        use std::f64::consts::TAU;
        match *self {
            Motion::ConstantVelocity { velocity_mps } => velocity_mps,
            Motion::Sine {
                amplitude_m,
                frequency_hz,
            } => amplitude_m * TAU * frequency_hz * (TAU * frequency_hz * t).cos(),
            Motion::SineWithHarmonic {
                amplitude_m,
                frequency_hz,
                harmonic,
                ratio,
            } => {
                let w = TAU * frequency_hz;
                amplitude_m * w * ((w * t).cos() + ratio * harmonic * (harmonic * w * t).cos())
            }
            Motion::VelocitySine {
                mean_mps,
                amplitude_mps,
                frequency_hz,
            } => mean_mps + amplitude_mps * (TAU * frequency_hz * t).sin(),
        }
    }
}

/// The rig as a [`Model`].
#[derive(Clone, Debug)]
pub struct PrescribedMotion {
    driven: DrivenLaw,
    motion: Motion,
    normal_load_n: f64,
    /// `N/N₀`: the ratio by which laws written with forces at their nominal load scale.
    load_ratio: f64,
}

impl PrescribedMotion {
    /// A rig driving `law` with `motion` at constant normal load.
    pub fn new(law: Law, motion: Motion, normal_load_n: f64) -> Self {
        Self {
            driven: DrivenLaw::new(law, motion.velocity_mps(0.0)),
            motion,
            normal_load_n,
            load_ratio: 1.0,
        }
    }

    /// The same rig with the law's nominal load `N₀` [N] given: laws written with forces at
    /// their nominal load (LuGre, Dahl, GMS, the seven-parameter model) then act at the ratio
    /// `N/N₀` (by default 1: the rig's load is their nominal load).
    pub fn with_nominal_load(mut self, nominal_load_n: f64) -> Self {
        self.load_ratio = self.normal_load_n / nominal_load_n;
        self
    }

    /// Initial state: `x = 0`, law states at their initial values.
    pub fn initial_state(&self) -> Vec<f64> {
        self.driven.initial_state()
    }

    fn contact(&self, t: f64) -> Contact {
        Contact {
            load_ratio: self.load_ratio,
            ..Contact::kinematic(t, self.motion.velocity_mps(t), self.normal_load_n)
        }
    }
}

impl Model for PrescribedMotion {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        self.driven.dim()
    }

    fn state_names(&self) -> Vec<String> {
        self.driven.state_names()
    }

    /// A step never spans more than 1/32 of the motion's shortest period, so a velocity
    /// reversal (an event for hysteretic laws) cannot fall between two step ends unseen.
    fn max_step_s(&self, _t_s: f64) -> f64 {
        self.motion.fastest_period_s() / 32.0
    }

    fn state_scales(&self, scales: &mut [f64]) {
        self.driven.state_scales(scales);
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        self.driven.initialize(&c, y)
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.driven.rhs(&self.contact(t), y, dy);
    }

    fn n_events(&self) -> usize {
        self.driven.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.driven.events(&self.contact(t), y, g);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        self.driven.apply_event(index, &c, y);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        let c = self.contact(t);
        self.driven.after_step(&c, y)
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m"),
            Column::new("v", "m/s"),
            Column::new("friction_force", "N"),
        ];
        cols.extend(self.driven.law().state_columns());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let c = self.contact(t);
        let n_law = self.driven.n_law();
        row[0] = y[0];
        row[1] = c.v_rel_mps;
        row[2] = self.driven.force_n(&c, y);
        row[3..3 + n_law].copy_from_slice(&y[1..]);
    }

    fn prefers_implicit(&self) -> bool {
        self.driven.prefers_implicit()
    }
}

/// Runs a rig and returns its output rows (`t, x, v, friction_force, states…, event`).
pub fn run_prescribed(
    law: Law,
    motion: Motion,
    normal_load_n: f64,
    t_end_s: f64,
    rtol: f64,
    output_interval_s: f64,
) -> Result<Vec<Vec<f64>>, SimError> {
    let rig = PrescribedMotion::new(law, motion, normal_load_n);
    let y0 = rig.initial_state();
    let mut sim = Simulation::new(
        Box::new(rig),
        y0,
        0.0,
        DriverSettings {
            method: Method::Auto,
            rtol,
            rk4_dt_s: 1e-5,
            output_interval_s,
        },
    )?;
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end_s, &mut rows)?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::LawConfig;
    use crate::laws::lugre::LuGreParams;

    /// At constant velocity LuGre's force settles on its steady curve
    /// `F_ss = −(F_C + (F_S − F_C)e^(−(v/v_S)²))·sgn v − σ₂v` (MODELS §5).
    #[test]
    fn lugre_settles_on_its_steady_curve() {
        for v in [2e-4, 1e-3, 3e-3, 0.05] {
            let law = LawConfig::LuGre(LuGreParams::default()).build();
            let rows = run_prescribed(
                law,
                Motion::ConstantVelocity { velocity_mps: v },
                1.0,
                // 40 relaxation lengths g/σ₀ ≈ 1.5e-5 m of sliding.
                6e-4 / v,
                1e-10,
                1e-3,
            )
            .expect("runs");
            let f = rows.last().expect("rows")[3];
            let expected = -(1.0 + 0.5 * (-(v / 1e-3f64).powi(2)).exp()) - 0.4 * v;
            assert!(
                (f - expected).abs() < 1e-9,
                "v = {v}: F = {f}, expected {expected}"
            );
        }
    }
}
