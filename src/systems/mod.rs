//! Mechanical systems (MODELS §3). Each system turns its parameters and a friction law into a
//! [`Model`](crate::integrate::Model) the integrators run.
//!
//! Designed to grow: a system owns one law instance per contact (a Burridge–Knopoff chain of N
//! blocks holds N laws, each with its own state and mode), exposes its contacts' kinematics
//! through [`Contact`](crate::laws::Contact), and publishes its output columns. Prescribed-motion
//! rigs, the asperity model and reference flows/maps plug in as further variants of
//! [`SystemConfig`].

pub mod belt_block;
pub mod joint;
pub mod reversal;

use serde::{Deserialize, Serialize};

use crate::integrate::Model;
use crate::laws::{LawConfig, NormalLoadNoise};
use crate::params::{ParamMeta, ParamSet};

pub use belt_block::{BeltBlock, BeltBlockParams};

/// Mechanical system choice with its parameters, as stored in presets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SystemConfig {
    /// Block on a moving belt held by a spring and damper (S1 friction test bench).
    BeltBlock(BeltBlockParams),
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
}

/// Every system, in menu order.
pub static SYSTEMS: &[SystemInfo] = &[SystemInfo {
    variant: "BeltBlock",
    name: "Belt–block test bench",
    equation: belt_block::EQUATION,
    meta: BeltBlockParams::META,
}];

impl SystemConfig {
    /// The parameters, addressable by key.
    pub fn params(&self) -> &dyn ParamSet {
        match self {
            SystemConfig::BeltBlock(p) => p,
        }
    }

    /// The parameters, mutable by key.
    pub fn params_mut(&mut self) -> &mut dyn ParamSet {
        match self {
            SystemConfig::BeltBlock(p) => p,
        }
    }

    /// Variant name.
    pub fn variant(&self) -> &'static str {
        match self {
            SystemConfig::BeltBlock(_) => "BeltBlock",
        }
    }

    /// Builds the model with its initial state.
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
        }
    }
}
