//! Mechanical systems (MODELS §3). Each system turns its parameters and a friction law into a
//! [`Model`](crate::integrate::Model) the integrators run.
//!
//! Designed to grow: a system owns one law instance per contact (a Burridge–Knopoff chain of N
//! blocks holds N laws, each with its own state and mode), exposes its contacts' kinematics
//! through [`Contact`](crate::laws::Contact), and publishes its output columns. Prescribed-motion
//! rigs, the asperity model and reference flows/maps plug in as further variants of
//! [`SystemConfig`].
//!
//! Reference systems for checking and teaching the chaos tools (MODELS §5): the Lorenz flow (a
//! [`Model`]) and the logistic and Hénon maps ([`MapModel`]s, iterated by
//! [`MapRun`](crate::integrate::MapRun)). They ignore the preset's friction law.

pub mod belt_block;
pub mod henon;
pub mod joint;
pub mod logistic;
pub mod lorenz;
pub mod reversal;

use serde::{Deserialize, Serialize};

use crate::integrate::{Column, MapModel, Model, SimError};
use crate::laws::{LawConfig, NormalLoadNoise};
use crate::params::{ParamMeta, ParamSet};

pub use belt_block::{BeltBlock, BeltBlockParams};
pub use henon::{HenonMap, HenonParams};
pub use logistic::{LogisticMap, LogisticParams};
pub use lorenz::{Lorenz, LorenzParams};

/// Mechanical system choice with its parameters, as stored in presets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SystemConfig {
    /// Block on a moving belt held by a spring and damper (S1 friction test bench).
    BeltBlock(BeltBlockParams),
    /// Lorenz flow (reference chaotic system; no friction).
    Lorenz(LorenzParams),
    /// Logistic map with a companion start (S1 Fig 15; discrete, `t` counts iterations).
    LogisticMap(LogisticParams),
    /// Hénon map (discrete, `t` counts iterations).
    HenonMap(HenonParams),
}

impl Default for SystemConfig {
    fn default() -> Self {
        SystemConfig::BeltBlock(BeltBlockParams::default())
    }
}

/// Static description of a system for menus and docs.
#[derive(Clone, Copy, Debug)]
pub struct SystemInfo {
    /// Variant name used in presets.
    pub variant: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Equation of motion in readable unicode.
    pub equation: &'static str,
    /// Numeric parameters.
    pub meta: &'static [ParamMeta],
    /// Discrete map (`t` counts iterations) rather than a flow.
    pub discrete: bool,
    /// Whether the preset's friction law (and load noise) acts on the system.
    pub uses_law: bool,
    /// The system with default parameters.
    pub default_config: fn() -> SystemConfig,
}

/// Every system, in menu order.
pub static SYSTEMS: &[SystemInfo] = &[
    SystemInfo {
        variant: "BeltBlock",
        name: "Belt–block test bench",
        equation: belt_block::EQUATION,
        meta: BeltBlockParams::META,
        discrete: false,
        uses_law: true,
        default_config: || SystemConfig::BeltBlock(BeltBlockParams::default()),
    },
    SystemInfo {
        variant: "Lorenz",
        name: "Lorenz flow (reference)",
        equation: lorenz::EQUATION,
        meta: LorenzParams::META,
        discrete: false,
        uses_law: false,
        default_config: || SystemConfig::Lorenz(LorenzParams::default()),
    },
    SystemInfo {
        variant: "LogisticMap",
        name: "Logistic map (reference)",
        equation: logistic::EQUATION,
        meta: LogisticParams::META,
        discrete: true,
        uses_law: false,
        default_config: || SystemConfig::LogisticMap(LogisticParams::default()),
    },
    SystemInfo {
        variant: "HenonMap",
        name: "Hénon map (reference)",
        equation: henon::EQUATION,
        meta: HenonParams::META,
        discrete: true,
        uses_law: false,
        default_config: || SystemConfig::HenonMap(HenonParams::default()),
    },
];

/// The registry entry of a variant name (case-insensitive).
pub fn find_system(variant: &str) -> Option<&'static SystemInfo> {
    SYSTEMS
        .iter()
        .find(|s| s.variant.eq_ignore_ascii_case(variant.trim()))
}

impl SystemConfig {
    /// The parameters, addressable by key.
    pub fn params(&self) -> &dyn ParamSet {
        match self {
            SystemConfig::BeltBlock(p) => p,
            SystemConfig::Lorenz(p) => p,
            SystemConfig::LogisticMap(p) => p,
            SystemConfig::HenonMap(p) => p,
        }
    }

    /// The parameters, mutable by key.
    pub fn params_mut(&mut self) -> &mut dyn ParamSet {
        match self {
            SystemConfig::BeltBlock(p) => p,
            SystemConfig::Lorenz(p) => p,
            SystemConfig::LogisticMap(p) => p,
            SystemConfig::HenonMap(p) => p,
        }
    }

    /// Variant name.
    pub fn variant(&self) -> &'static str {
        match self {
            SystemConfig::BeltBlock(_) => "BeltBlock",
            SystemConfig::Lorenz(_) => "Lorenz",
            SystemConfig::LogisticMap(_) => "LogisticMap",
            SystemConfig::HenonMap(_) => "HenonMap",
        }
    }

    /// Registry entry of this system.
    pub fn info(&self) -> &'static SystemInfo {
        let v = self.variant();
        SYSTEMS
            .iter()
            .find(|s| s.variant == v)
            .unwrap_or(&SYSTEMS[0])
    }

    /// Whether this is a discrete map (run with [`build_map`](Self::build_map)).
    pub fn is_map(&self) -> bool {
        self.info().discrete
    }

    /// Whether the friction law and the load noise act on this system.
    pub fn uses_law(&self) -> bool {
        self.info().uses_law
    }

    /// Period of the explicit time forcing [s], when the system is periodically forced (the
    /// belt–block with an active belt joint: the belt-turn period).
    pub fn forcing_period_s(&self) -> Option<f64> {
        match self {
            SystemConfig::BeltBlock(b) => {
                let active =
                    b.joint_amplitude > 0.0 && b.joint_length_m > 0.0 && b.belt_speed_mps() > 0.0;
                active.then(|| b.belt_period_s())
            }
            _ => None,
        }
    }

    /// Builds the flow model with its initial state. A discrete map has no flow: its model
    /// here refuses to start ([`SimError::Model`] from `initialize`); use
    /// [`build_map`](Self::build_map) or `Preset::build_runner`.
    pub fn build(
        &self,
        law: &LawConfig,
        noise: Option<NormalLoadNoise>,
    ) -> (Box<dyn Model + Send>, Vec<f64>) {
        match self {
            SystemConfig::BeltBlock(p) => {
                let model = BeltBlock::new(p.clone(), law.build(), noise);
                let y0 = model.initial_state();
                (Box::new(model), y0)
            }
            SystemConfig::Lorenz(p) => {
                let model = Lorenz::new(p.clone());
                let y0 = model.initial_state();
                (Box::new(model), y0)
            }
            SystemConfig::LogisticMap(_) | SystemConfig::HenonMap(_) => {
                let name = self.info().name;
                let y0 = self.build_map().map_or_else(Vec::new, |(_, x0)| x0);
                (
                    Box::new(NotAFlow {
                        name,
                        dim: y0.len(),
                    }),
                    y0,
                )
            }
        }
    }

    /// Builds the map with its initial state; `None` for flows.
    pub fn build_map(&self) -> Option<(Box<dyn MapModel + Send>, Vec<f64>)> {
        match self {
            SystemConfig::LogisticMap(p) => {
                let m = LogisticMap::new(p.clone());
                let x0 = m.initial_state();
                Some((Box::new(m), x0))
            }
            SystemConfig::HenonMap(p) => {
                let m = HenonMap::new(p.clone());
                let x0 = m.initial_state();
                Some((Box::new(m), x0))
            }
            SystemConfig::BeltBlock(_) | SystemConfig::Lorenz(_) => None,
        }
    }
}

/// Stand-in returned by [`SystemConfig::build`] for a discrete map: it cannot be integrated and
/// says so when a simulation starts.
struct NotAFlow {
    name: &'static str,
    dim: usize,
}

impl Model for NotAFlow {
    fn dim(&self) -> usize {
        self.dim
    }

    fn state_names(&self) -> Vec<String> {
        (0..self.dim).map(|i| format!("x{i}")).collect()
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales.iter_mut().for_each(|s| *s = 1.0);
    }

    fn initialize(&mut self, t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        Err(SimError::Model {
            t_s: t,
            message: format!(
                "the {} is a discrete map, not a flow: run it with the map runner",
                self.name
            ),
        })
    }

    fn rhs(&self, _t: f64, _y: &[f64], dy: &mut [f64]) {
        dy.iter_mut().for_each(|d| *d = 0.0);
    }

    fn columns(&self) -> Vec<Column> {
        Vec::new()
    }

    fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}
}
