//! Friction laws (MODELS §2): one file per law, each with its equation in the doc comment, its
//! parameter metadata, and a registry line below.
//!
//! Adding a law: write `src/laws/<law>.rs` with a `param_struct!` parameter struct, `EQUATION`
//! and `SUMMARY` constants and a type with `new(params)`/`set_params(params)` implementing
//! [`FrictionLaw`]; then add one line to [`law_registry!`] below.

mod contact;
mod exp_neg;
mod irreversibility;
mod law;
mod set_valued;
mod sign_model;
mod static_law;

pub mod armstrong;
pub mod bo_pavelescu;
pub mod coulomb;
pub mod dahl;
pub mod gaussian;
pub mod gms;
pub mod lorentzian;
pub mod lugre;
pub mod maxwell_slip;
pub mod normal_noise;
pub mod popp_stelter;
pub mod powell_wiercigroch;
pub mod rate_state;
pub mod rate_state_stability;
pub mod sliding_spinning;
pub mod static_kinetic;
pub mod stefanski;
pub mod stribeck_s1;
pub mod subloading;
pub mod tustin;

pub use contact::{Contact, LawSwitch, sgn};
pub use exp_neg::exp_neg;
pub use irreversibility::{Branch, IrreversibleCurve, IrreversibleLaw};
pub use law::{FrictionLaw, LawJacobian, resume_by_guards};
pub use normal_noise::{NoiseParams, NormalLoadNoise};
pub use set_valued::StickMode;
pub use sign_model::{REGULARIZATION_RANGE_MPS, SignModel};
pub use static_law::{MuCurve, StaticLaw};

use serde::{Deserialize, Serialize};

use crate::integrate::Column;
use crate::params::{ParamMeta, ParamSet};

/// Generic code run on a [`Law`]'s concrete type by [`Law::visit`].
pub trait LawVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the concrete law.
    fn visit<L: FrictionLaw>(self, law: &L) -> Self::Output;
}

/// Static description of a law for menus, docs and the CLI.
#[derive(Clone, Copy, Debug)]
pub struct LawInfo {
    /// Short key (`lugre`), accepted by the CLI.
    pub key: &'static str,
    /// Variant name used in presets (`LuGre`).
    pub variant: &'static str,
    /// Display name.
    pub name: &'static str,
    /// The law's equation in readable unicode.
    pub equation: &'static str,
    /// One-line explanation.
    pub summary: &'static str,
    /// Numeric parameters.
    pub meta: &'static [ParamMeta],
    /// Keys of non-numeric options.
    pub extra_keys: &'static [&'static str],
    /// Configuration with default parameters.
    pub default_config: fn() -> LawConfig,
}

macro_rules! law_registry {
    ($( $variant:ident => $key:literal, $name:literal, $module:ident, $params:ty, $law:ty; )*) => {
        /// Friction law choice with its parameters, as stored in presets.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum LawConfig {
            $(
                #[doc = $name]
                $variant($params),
            )*
        }

        /// A friction law ready to run (enum dispatch keeps the hot path inlinable).
        #[derive(Clone, Debug)]
        pub enum Law {
            $(
                #[doc = $name]
                $variant($law),
            )*
        }

        /// Every law, in menu order.
        pub static LAWS: &[LawInfo] = &[
            $(LawInfo {
                key: $key,
                variant: stringify!($variant),
                name: $name,
                equation: $module::EQUATION,
                summary: $module::SUMMARY,
                meta: <$params>::META,
                extra_keys: <$params>::EXTRA_KEYS,
                default_config: || LawConfig::$variant(<$params>::default()),
            },)*
        ];

        impl LawConfig {
            /// Builds the runnable law.
            pub fn build(&self) -> Law {
                match self {
                    $(LawConfig::$variant(p) => Law::$variant(<$law>::new(p.clone())),)*
                }
            }

            /// The parameters, addressable by key.
            pub fn params(&self) -> &dyn ParamSet {
                match self {
                    $(LawConfig::$variant(p) => p,)*
                }
            }

            /// The parameters, mutable by key.
            pub fn params_mut(&mut self) -> &mut dyn ParamSet {
                match self {
                    $(LawConfig::$variant(p) => p,)*
                }
            }

            /// Variant name (`LuGre`).
            pub fn variant(&self) -> &'static str {
                match self {
                    $(LawConfig::$variant(_) => stringify!($variant),)*
                }
            }
        }

        impl Law {
            /// Variant name of the law (`LuGre`), as in [`LawConfig::variant`].
            pub fn variant(&self) -> &'static str {
                match self {
                    $(Law::$variant(_) => stringify!($variant),)*
                }
            }

            /// Calls `visitor` with the law's concrete type, so generic code over
            /// [`FrictionLaw`] is compiled once per law (no enum match in its inner loop).
            pub fn visit<V: LawVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(Law::$variant(l) => visitor.visit(l),)*
                }
            }

            /// Replaces the parameters of a running law of the same kind, keeping its mode.
            /// Returns `false` if `config` is another law.
            pub fn set_params(&mut self, config: &LawConfig) -> bool {
                match (self, config) {
                    $((Law::$variant(l), LawConfig::$variant(p)) => {
                        l.set_params(p.clone());
                        true
                    })*
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }
        }

        macro_rules! dispatch {
            ($self_:expr, $l:ident => $call:expr) => {
                match $self_ {
                    $(Law::$variant($l) => $call,)*
                }
            };
        }
    };
}

law_registry! {
    Coulomb => "coulomb", "Coulomb", coulomb, coulomb::CoulombParams,
        StaticLaw<coulomb::CoulombParams>;
    StaticKinetic => "static_kinetic", "Static/kinetic Coulomb", static_kinetic,
        static_kinetic::StaticKineticParams, StaticLaw<static_kinetic::StaticKineticParams>;
    StribeckS1 => "stribeck_s1", "Stribeck (thesis S1)", stribeck_s1,
        stribeck_s1::StribeckS1Params, StaticLaw<stribeck_s1::StribeckS1Params>;
    Tustin => "tustin", "Tustin exponential", tustin, tustin::TustinParams,
        StaticLaw<tustin::TustinParams>;
    BoPavelescu => "bo_pavelescu", "Bo–Pavelescu", bo_pavelescu,
        bo_pavelescu::BoPavelescuParams, StaticLaw<bo_pavelescu::BoPavelescuParams>;
    Gaussian => "gaussian", "Gaussian Stribeck", gaussian, gaussian::GaussianParams,
        StaticLaw<gaussian::GaussianParams>;
    Lorentzian => "lorentzian", "Lorentzian Stribeck", lorentzian,
        lorentzian::LorentzianParams, StaticLaw<lorentzian::LorentzianParams>;
    PoppStelter => "popp_stelter", "Popp–Stelter", popp_stelter,
        popp_stelter::PoppStelterParams, StaticLaw<popp_stelter::PoppStelterParams>;
    LuGre => "lugre", "LuGre", lugre, lugre::LuGreParams, lugre::LuGre;
    Armstrong => "armstrong", "Armstrong seven-parameter", armstrong,
        armstrong::ArmstrongParams, armstrong::Armstrong;
    PowellWiercigroch => "powell_wiercigroch", "Powell–Wiercigroch irreversibility",
        powell_wiercigroch, powell_wiercigroch::PowellWiercigrochParams,
        IrreversibleLaw<powell_wiercigroch::PowellWiercigrochParams>;
    Stefanski => "stefanski", "Stefański–Wojewoda irreversibility", stefanski,
        stefanski::StefanskiParams, IrreversibleLaw<stefanski::StefanskiParams>;
    Subloading => "subloading", "Subloading-overstress", subloading,
        subloading::SubloadingParams, subloading::Subloading;
    Dahl => "dahl", "Dahl", dahl, dahl::DahlParams, dahl::Dahl;
    MaxwellSlip => "maxwell_slip", "Maxwell-slip", maxwell_slip,
        maxwell_slip::MaxwellSlipParams, maxwell_slip::MaxwellSlip;
    Gms => "gms", "Generalized Maxwell-slip (GMS)", gms, gms::GmsParams, gms::Gms;
    RateState => "rate_state", "Rate-and-state (Dieterich–Ruina)", rate_state,
        rate_state::RateStateParams, rate_state::RateState;
}

impl Default for LawConfig {
    fn default() -> Self {
        LawConfig::StribeckS1(stribeck_s1::StribeckS1Params::default())
    }
}

impl LawConfig {
    /// Registry entry of this law.
    pub fn info(&self) -> &'static LawInfo {
        let variant = self.variant();
        LAWS.iter()
            .find(|i| i.variant == variant)
            .unwrap_or(&LAWS[0])
    }
}

/// Key of the sign-treatment option of the laws that have one (the static laws).
pub const SIGN_KEY: &str = "sign";

impl LawConfig {
    /// The sign treatment of laws that have one (their `sign` option), for the window's
    /// option menu; `None` for the others.
    pub fn sign_model(&self) -> Option<SignModel> {
        let params = self.params();
        if !params.extra_keys().contains(&SIGN_KEY) {
            return None;
        }
        crate::preset::ron_io::parse_fragment(&params.get_text(SIGN_KEY)?).ok()
    }

    /// Sets the sign treatment of a law that has one; `false` for the others.
    pub fn set_sign_model(&mut self, sign: SignModel) -> bool {
        let Ok(text) = crate::preset::ron_io::to_compact(&sign) else {
            return false;
        };
        self.params_mut().set_text(SIGN_KEY, &text).is_ok()
    }
}

/// Looks a law up by key (`lugre`) or variant name (`LuGre`), case-insensitively.
pub fn find_law(name: &str) -> Option<&'static LawInfo> {
    LAWS.iter()
        .find(|i| i.key.eq_ignore_ascii_case(name) || i.variant.eq_ignore_ascii_case(name))
}

impl FrictionLaw for Law {
    fn n_states(&self) -> usize {
        dispatch!(self, l => l.n_states())
    }
    fn state_columns(&self) -> Vec<Column> {
        dispatch!(self, l => l.state_columns())
    }
    fn state_scales(&self, out: &mut [f64]) {
        dispatch!(self, l => l.state_scales(out))
    }
    fn initial_states(&self, s: &mut [f64]) {
        dispatch!(self, l => l.initial_states(s))
    }
    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        dispatch!(self, l => l.initialize(c, s))
    }
    fn resume(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        dispatch!(self, l => l.resume(c, s))
    }
    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        dispatch!(self, l => l.eval(c, s, ds))
    }
    fn jacobian(&self, c: &Contact, s: &[f64], j: &mut LawJacobian<'_>) -> bool {
        dispatch!(self, l => l.jacobian(c, s, j))
    }
    fn n_events(&self) -> usize {
        dispatch!(self, l => l.n_events())
    }
    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        dispatch!(self, l => l.events(c, s, g))
    }
    fn apply_event(&mut self, index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        dispatch!(self, l => l.apply_event(index, c, s))
    }
    fn after_step(&mut self, c: &Contact, s: &mut [f64]) -> bool {
        dispatch!(self, l => l.after_step(c, s))
    }
    fn has_after_step(&self) -> bool {
        dispatch!(self, l => l.has_after_step())
    }
    fn stuck(&self) -> Option<bool> {
        dispatch!(self, l => l.stuck())
    }
    fn stuck_at(&self, c: &Contact) -> Option<bool> {
        dispatch!(self, l => l.stuck_at(c))
    }
    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, load_ratio: f64) -> f64 {
        dispatch!(self, l => l.steady_force(v_rel_mps, normal_load_n, load_ratio))
    }
    fn steady_states(&self, v_rel_mps: f64, normal_load_n: f64, s: &mut [f64]) {
        dispatch!(self, l => l.steady_states(v_rel_mps, normal_load_n, s))
    }
    fn is_stiff(&self) -> bool {
        dispatch!(self, l => l.is_stiff())
    }
    fn states_are_independent(&self) -> bool {
        dispatch!(self, l => l.states_are_independent())
    }
    fn kinks_at_reversal(&self) -> bool {
        dispatch!(self, l => l.kinks_at_reversal())
    }
}
