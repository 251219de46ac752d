//! Mechanical systems (MODELS §3). Each system turns its parameters and one friction law per
//! contact into a [`Model`](crate::integrate::Model) the integrators run, and describes itself
//! to the front ends: the meaning of every output column ([`Role`](crate::integrate::Role)),
//! its degrees of freedom, contacts and links ([`Layout`]), its forcing period and derived
//! quantities ([`SystemKind`]). No front end names a system or a column.
//!
//! A system owns one law instance per contact (a chain of N blocks holds N laws, each with its
//! own state, mode and memory; [`ContactLaws`]), and takes parameter changes while it runs
//! without losing them ([`Model::reconfigure`](crate::integrate::Model::reconfigure)).
//!
//! Reference systems for checking and teaching the chaos tools (MODELS §5): the Lorenz flow and
//! the logistic and Hénon maps ([`MapModel`](crate::integrate::MapModel)s). They have no
//! contacts and ignore the preset's friction law.
//!
//! **Adding a system**: one file with its parameters, model and [`SystemKind`] implementation,
//! one line in the registry below (it also declares the file's module), and its presets (see
//! ARCHITECTURE.md).

#[macro_use]
mod registry;

pub mod contacts;
pub mod energy_columns;
pub mod joint;
pub mod layout;
mod not_a_flow;
pub mod one_block;
pub mod reversal;
pub mod scene;
pub mod spec;
pub mod stability;

pub use belt_block::{BeltBlock, BeltBlockParams};
pub use carlson_langer::{CarlsonLanger, CarlsonLangerParams};
pub use chain::{Chain, ChainEnds, ChainParams, InitialPattern};
pub use contacts::ContactLaws;
pub use fkt::{BodyDrive, Fkt, FktParams};
pub use friction_rig::{FrictionRigParams, Programme as RigProgramme, RigTest};
pub use henon::{HenonMap, HenonParams};
pub use layout::{Anchor, ContactInfo, Dof, Layout, Link, LinkKind, Substrate, Surface};
pub use logistic::{LogisticMap, LogisticParams};
pub use lorenz::{Lorenz, LorenzParams};
pub use registry::{ConfigOf, Derived, HeatBathKeys, SystemInfo, SystemKind, ThermalFriction};
pub use scene::{Scene, ScenePart, ScenePoint};
pub use spec::{Built, Restart, SystemSpec};
pub use spring_slider::{Programme, SpringSliderParams, Start};
pub use stability::StabilityBoundary;
pub use tomlinson::{Tomlinson, TomlinsonParams};

use crate::laws::{LawConfig, NoiseParams};
use crate::params::ParamSet;

system_registry! {
    BeltBlock => "belt_block", belt_block::BeltBlockParams;
    TwoBlock => "two_block", two_block::TwoBlockParams;
    SpringSlider => "spring_slider", spring_slider::SpringSliderParams;
    FrictionRig => "friction_rig", friction_rig::FrictionRigParams;
    Asperity => "asperity", asperity::AsperityParams;
    Chain => "chain", chain::ChainParams;
    CarlsonLanger => "carlson_langer", carlson_langer::CarlsonLangerParams;
    Tomlinson => "tomlinson", tomlinson::TomlinsonParams;
    Fkt => "fkt", fkt::FktParams;
    Pendulum3d => "pendulum_3d", pendulum3d::Pendulum3dParams;
    SpinRig => "spin_rig", spin_rig::SpinRigParams;
    Lorenz => "lorenz", lorenz::LorenzParams;
    LogisticMap => "logistic", logistic::LogisticParams;
    HenonMap => "henon", henon::HenonParams;
}

impl Default for SystemConfig {
    fn default() -> Self {
        SystemConfig::BeltBlock(BeltBlockParams::default())
    }
}

/// The registry entry of a key (`two_block`) or variant name (`TwoBlock`), case-insensitively.
pub fn find_system(name: &str) -> Option<&'static SystemInfo> {
    let name = name.trim();
    SYSTEMS
        .iter()
        .find(|s| s.key.eq_ignore_ascii_case(name) || s.variant.eq_ignore_ascii_case(name))
}

impl SystemConfig {
    /// Registry entry of this system.
    pub fn info(&self) -> &'static SystemInfo {
        let v = self.variant();
        SYSTEMS
            .iter()
            .find(|s| s.variant == v)
            .unwrap_or(&SYSTEMS[0])
    }

    /// Whether this is a discrete map.
    pub fn is_map(&self) -> bool {
        self.info().discrete
    }

    /// Whether friction laws (and the load noise) act on this system: it has contacts.
    pub fn uses_law(&self) -> bool {
        self.n_contacts() > 0
    }
}
