//! The interface every system's parameter struct implements ([`SystemKind`]) and the macro that
//! turns one line per system into the preset enum [`SystemConfig`](super::SystemConfig), the
//! menu table [`SYSTEMS`](super::SYSTEMS) and their dispatch.

use super::{Built, Layout, StabilityBoundary};
use crate::laws::{LawConfig, NoiseParams};
use crate::params::ParamSet;

/// A quantity derived from a system's parameters, shown beside its sliders (`v_b`, `f₀`).
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// Symbol or short name (`v_b`, `belt turn`).
    pub label: &'static str,
    /// Value in SI units.
    pub value: f64,
    /// SI unit (`m/s`, `s`, `Hz`).
    pub unit: &'static str,
}

/// What a study of friction against speed and temperature needs to know of a system (the
/// atomic models): which parameters are the drive speed and the temperature, the viscous drag
/// that adds `drag·v` to the mean friction, and the friction of the cold system in the
/// quasi-static limit (the athermal force the thermally activated law tends to).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThermalFriction {
    /// Parameter keys of the drive speed and the temperature.
    pub keys: HeatBathKeys,
    /// Viscous drag coefficient of the whole slider [kg/s]: mean drag force `drag·v`.
    pub drag_kg_per_s: f64,
    /// Mean friction of the cold system as `v → 0` [N], when known.
    pub athermal_friction_n: Option<f64>,
}

/// The parameters a friction sweep varies: the drive speed [m/s] and the temperature [K].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeatBathKeys {
    /// Parameter key of the drive speed.
    pub speed: &'static str,
    /// Parameter key of the temperature.
    pub temperature: &'static str,
}

/// A mechanical (or reference) system, implemented by its parameter struct.
///
/// Adding a system: a file `src/systems/<name>.rs` with a `param_struct!` parameter struct, a
/// model implementing [`Model`](crate::integrate::Model) (or
/// [`MapModel`](crate::integrate::MapModel)) and this trait; then one line in the registry in
/// `src/systems/mod.rs`, and presets.
pub trait SystemKind: ParamSet + Clone + Default + PartialEq + Send + Sync + 'static {
    /// Display name.
    const NAME: &'static str;
    /// Equation of motion in readable unicode.
    const EQUATION: &'static str;
    /// Discrete map (`t` counts iterations) rather than a flow.
    const DISCRETE: bool = false;

    /// Number of frictional contacts whose friction law the preset chooses, one law each (0:
    /// the system ignores the preset's law, because it has no friction or because its friction
    /// is part of the model, like the Carlson–Langer chain's; its layout still lists such
    /// contacts).
    fn n_contacts(&self) -> usize;

    /// A scheme of the system's own for running it with these settings (cheaper than the
    /// generic driver, same rows), or `None` (the default) for the generic driver. Analyses
    /// always use the model.
    fn engine(
        &self,
        _settings: &crate::integrate::driver::DriverSettings,
    ) -> Option<Result<Box<dyn crate::integrate::Engine>, crate::integrate::SimError>> {
        None
    }

    /// Degrees of freedom, contacts and links, for front ends.
    fn layout(&self) -> Layout;

    /// Period of the explicit time forcing [s], when the system is periodically forced; the
    /// natural stroboscopic Poincaré section.
    fn forcing_period_s(&self) -> Option<f64> {
        None
    }

    /// Period of the drive's own cycle [s] (the belt turn of the bench), whether or not it
    /// forces the system: the frequency a response is compared with (S1 Fig 61). Defaults to
    /// the forcing period.
    fn drive_period_s(&self) -> Option<f64> {
        self.forcing_period_s()
    }

    /// The nominal normal load `N₀` of `contact` [N], to which the load noise and the belt
    /// joint apply their factor (`N = N₀·factor`): laws written with forces at the nominal
    /// load scale by `N/N₀`. `None` (the default): the system does not scale its laws' forces
    /// by a load ratio (its contacts' ratio is 1).
    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        None
    }

    /// Quantities derived from the parameters, shown beside the sliders.
    fn derived(&self) -> Vec<Derived> {
        Vec::new()
    }

    /// Whether the system's own equations are random (thermal noise at a temperature above
    /// zero): analyses that need a deterministic flow (Floquet, Lyapunov exponents) then refuse
    /// or say they analyse the noiseless dynamics.
    fn is_stochastic(&self) -> bool {
        false
    }

    /// What friction-against-speed and temperature sweeps need, for systems with a thermal
    /// bath and a drive speed (`None`, the default, for the others). May solve the quasi-static
    /// problem: [`has_heat_bath`](Self::has_heat_bath) is the cheap question.
    fn thermal_friction(&self) -> Option<ThermalFriction> {
        None
    }

    /// The parameter keys of the drive speed and the temperature, when the system has a heat
    /// bath and a drive speed (friction sweeps apply); cheap.
    fn heat_bath_keys(&self) -> Option<HeatBathKeys> {
        None
    }

    /// Where steady sliding loses its stability in one of the parameters, from the
    /// linearised equations with these laws (one per contact): a critical stiffness, damping…
    /// Empty (the default) when the system does not know.
    fn stability_boundaries(&self, _laws: &[LawConfig]) -> Vec<StabilityBoundary> {
        Vec::new()
    }

    /// The standard friction test the system runs, when it is a characterisation rig (`None`,
    /// the default, for the others): what [`crate::analysis::rig_reading`] reads its record by.
    fn characterisation(&self) -> Option<super::RigProgramme> {
        None
    }

    /// Why the analyses that follow the tangent dynamics (Lyapunov exponents, Floquet
    /// multipliers) do not apply to this system, when they do not (`None`, the default: they
    /// apply).
    fn tangent_refusal(&self) -> Option<&'static str> {
        None
    }

    /// Builds the model with one law per contact (`laws.len() == n_contacts()`) and the
    /// optional load noise, with its initial state.
    fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built;
}

/// Static description of a system for menus, docs and the CLI.
#[derive(Clone, Copy, Debug)]
pub struct SystemInfo {
    /// Short key (`belt_block`), accepted by the CLI.
    pub key: &'static str,
    /// Variant name used in presets (`BeltBlock`).
    pub variant: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Equation of motion in readable unicode.
    pub equation: &'static str,
    /// Numeric parameters.
    pub meta: &'static [crate::params::ParamMeta],
    /// Keys of the non-numeric parameters (options such as a chain's ends), set as RON text.
    pub extra_keys: &'static [&'static str],
    /// Discrete map (`t` counts iterations) rather than a flow.
    pub discrete: bool,
    /// The system with default parameters.
    pub default_config: fn() -> super::SystemConfig,
}

/// Generates [`SystemConfig`](super::SystemConfig), [`SYSTEMS`](super::SYSTEMS) and the
/// dispatch of [`SystemKind`] over the enum from one line per system:
/// `Variant => "key", module::ParamsType;` (the line also declares `pub mod module;`).
macro_rules! system_registry {
    ($( $variant:ident => $key:literal, $module:ident :: $params:ident; )*) => {
        $(pub mod $module;)*

        /// Mechanical system choice with its parameters, as stored in presets.
        // The 3-D pendulum's ~40 parameters make its variant the largest (320 bytes); a
        // configuration is copied on edits and restarts only, never per step, so it stays inline.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum SystemConfig {
            $(
                #[doc = concat!("`", $key, "`")]
                $variant($module::$params),
            )*
        }

        /// Every system, in menu order.
        pub static SYSTEMS: &[SystemInfo] = &[
            $(SystemInfo {
                key: $key,
                variant: stringify!($variant),
                name: <$module::$params as SystemKind>::NAME,
                equation: <$module::$params as SystemKind>::EQUATION,
                meta: <$module::$params>::META,
                extra_keys: <$module::$params>::EXTRA_KEYS,
                discrete: <$module::$params as SystemKind>::DISCRETE,
                default_config: || SystemConfig::$variant(<$module::$params>::default()),
            },)*
        ];

        $(
            impl ConfigOf for $module::$params {
                fn of(config: &SystemConfig) -> Option<&Self> {
                    match config {
                        SystemConfig::$variant(p) => Some(p),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*

        macro_rules! dispatch_system {
            ($self_:expr, $p:ident => $call:expr) => {
                match $self_ {
                    $(SystemConfig::$variant($p) => $call,)*
                }
            };
        }

        impl SystemConfig {
            /// The parameters, addressable by key.
            pub fn params(&self) -> &dyn ParamSet {
                dispatch_system!(self, p => p)
            }

            /// The parameters, mutable by key.
            pub fn params_mut(&mut self) -> &mut dyn ParamSet {
                dispatch_system!(self, p => p)
            }

            /// Variant name (`BeltBlock`).
            pub fn variant(&self) -> &'static str {
                match self {
                    $(SystemConfig::$variant(_) => stringify!($variant),)*
                }
            }

            /// Number of frictional contacts (each with its own law).
            pub fn n_contacts(&self) -> usize {
                dispatch_system!(self, p => p.n_contacts())
            }

            /// Degrees of freedom, contacts and links.
            pub fn layout(&self) -> Layout {
                dispatch_system!(self, p => p.layout())
            }

            /// Period of the explicit time forcing [s], when periodically forced.
            pub fn forcing_period_s(&self) -> Option<f64> {
                dispatch_system!(self, p => p.forcing_period_s())
            }

            /// Period of the drive's own cycle [s] (the bench's belt turn), forcing or not.
            pub fn drive_period_s(&self) -> Option<f64> {
                dispatch_system!(self, p => p.drive_period_s())
            }

            /// The nominal normal load of `contact` [N], when the system scales its laws by a
            /// load ratio.
            pub fn nominal_normal_load_n(&self, contact: usize) -> Option<f64> {
                dispatch_system!(self, p => p.nominal_normal_load_n(contact))
            }

            /// Quantities derived from the parameters.
            pub fn derived(&self) -> Vec<Derived> {
                dispatch_system!(self, p => p.derived())
            }

            /// Whether the system's own equations are random (thermal noise).
            pub fn is_stochastic(&self) -> bool {
                dispatch_system!(self, p => p.is_stochastic())
            }

            /// Why Lyapunov exponents and Floquet multipliers do not apply, when they do not.
            pub fn tangent_refusal(&self) -> Option<&'static str> {
                dispatch_system!(self, p => p.tangent_refusal())
            }

            /// The standard friction test, when the system is a characterisation rig.
            pub fn characterisation(&self) -> Option<crate::systems::RigProgramme> {
                dispatch_system!(self, p => p.characterisation())
            }

            /// What friction-against-speed and temperature sweeps need, if the system has a
            /// thermal bath and a drive speed.
            pub fn thermal_friction(&self) -> Option<$crate::systems::ThermalFriction> {
                dispatch_system!(self, p => p.thermal_friction())
            }

            /// The keys of the drive speed and temperature, with a heat bath (cheap).
            pub fn heat_bath_keys(&self) -> Option<$crate::systems::HeatBathKeys> {
                dispatch_system!(self, p => p.heat_bath_keys())
            }

            /// Where steady sliding loses its stability, with these laws.
            pub fn stability_boundaries(
                &self,
                laws: &[LawConfig],
            ) -> Vec<$crate::systems::StabilityBoundary> {
                dispatch_system!(self, p => p.stability_boundaries(laws))
            }

            /// The system's own scheme for these settings, if it has one.
            pub fn engine(
                &self,
                settings: &crate::integrate::driver::DriverSettings,
            ) -> Option<Result<Box<dyn crate::integrate::Engine>, crate::integrate::SimError>> {
                dispatch_system!(self, p => p.engine(settings))
            }

            /// Builds the model (or map) with one law per contact and the load noise.
            pub fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built {
                dispatch_system!(self, p => p.build(laws, noise))
            }
        }
    };
}

/// The parameters of one registered system inside a [`SystemConfig`](super::SystemConfig)
/// (implemented by the registry for every system's parameter struct).
pub trait ConfigOf: Sized {
    /// `Some` when `config` is this system.
    fn of(config: &super::SystemConfig) -> Option<&Self>;
}
