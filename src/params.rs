//! Parameter metadata: one place that the GUI sliders, the CLI `--set` keys, preset validation and
//! the `tribolab laws` listing all read.
//!
//! Every parameter struct is declared with [`param_struct!`](crate::param_struct), which generates
//! the serde struct (unknown keys rejected, missing keys defaulted), `Default`, a static
//! [`ParamMeta`] table and key-based get/set.

use serde::{Deserialize, Serialize};

/// How a slider maps its position to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scale {
    /// Evenly spaced values.
    Linear,
    /// Evenly spaced decades; used where the range spans several orders of magnitude.
    Log,
}

/// Description of one numeric parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamMeta {
    /// Key used in presets and in `--set` paths (e.g. `mu_s`).
    pub key: &'static str,
    /// Human label shown next to the slider.
    pub label: &'static str,
    /// Symbol as printed in the equations (unicode).
    pub symbol: &'static str,
    /// SI unit ("" for dimensionless).
    pub unit: &'static str,
    /// Default value.
    pub default: f64,
    /// Smallest accepted value (inclusive).
    pub min: f64,
    /// Largest accepted value (inclusive).
    pub max: f64,
    /// Slider scale.
    pub scale: Scale,
    /// Whether the value must be a whole number (element counts).
    pub integer: bool,
    /// Whether changing it restarts the run (initial conditions, element counts) instead of
    /// applying to the running simulation.
    pub restart: bool,
    /// One-line help (from the field's doc comment).
    pub help: &'static str,
}

impl ParamMeta {
    /// Checks that `value` is finite, inside `[min, max]` and whole when required.
    pub fn check(&self, value: f64) -> Result<(), String> {
        if !value.is_finite() {
            return Err(format!(
                "{} must be a finite number, got {}",
                self.key,
                fmt_num(value)
            ));
        }
        if value < self.min || value > self.max {
            return Err(format!(
                "{} = {} is outside the allowed range [{}, {}] {}",
                self.key,
                fmt_num(value),
                fmt_num(self.min),
                fmt_num(self.max),
                self.unit
            )
            .trim_end()
            .to_string());
        }
        if self.integer && value.fract() != 0.0 {
            return Err(format!(
                "{} must be a whole number, got {}",
                self.key,
                fmt_num(value)
            ));
        }
        Ok(())
    }

    /// The help text without the leading blank that doc comments carry.
    pub fn help_text(&self) -> &'static str {
        self.help.trim()
    }

    /// Label with the unit in brackets, e.g. `Block mass m [kg]`.
    pub fn label_with_unit(&self) -> String {
        if self.unit.is_empty() {
            format!("{} {}", self.label, self.symbol)
        } else {
            format!("{} {} [{}]", self.label, self.symbol, self.unit)
        }
    }
}

/// Formats a number compactly for messages (`1e5` rather than `100000`).
pub fn fmt_num(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e4 || v.abs() < 1e-3) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Error from setting a parameter by key.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// No parameter with that key.
    #[error("unknown key `{key}`{}; valid keys: {valid}", crate::util::suggest::hint(.key, .valid.split(", ")))]
    UnknownKey {
        /// The key that was asked for.
        key: String,
        /// Comma-separated list of valid keys.
        valid: String,
    },
    /// The value is not acceptable.
    #[error("{0}")]
    Invalid(String),
}

/// A set of parameters addressable by key.
pub trait ParamSet {
    /// Metadata of every numeric parameter, in display order.
    fn meta(&self) -> &'static [ParamMeta];
    /// Value of a numeric parameter.
    fn get(&self, key: &str) -> Option<f64>;
    /// Sets a numeric parameter after checking it against its metadata.
    fn set(&mut self, key: &str, value: f64) -> Result<(), ParamError>;
    /// Sets any field from text: numbers for numeric fields, RON for the others.
    fn set_text(&mut self, key: &str, text: &str) -> Result<(), ParamError>;

    /// Keys of the non-numeric fields (options, lists), edited as RON text.
    fn extra_keys(&self) -> &'static [&'static str];

    /// Any field as text (RON for the non-numeric ones).
    fn get_text(&self, key: &str) -> Option<String>;

    /// The named options of a non-numeric field that is a choice ([`ExtraField::choices`]);
    /// empty for free-form fields and unknown keys.
    fn extra_choices(&self, _key: &str) -> &'static [&'static str] {
        &[]
    }
    /// Checks every field; returns `(key, message)` for each problem.
    fn problems(&self) -> Vec<(String, String)> {
        self.meta()
            .iter()
            .filter_map(|m| {
                let v = self.get(m.key)?;
                m.check(v).err().map(|e| (m.key.to_string(), e))
            })
            .collect()
    }
}

/// A non-numeric preset field that can check itself (enums carrying their own numbers).
pub trait ExtraField {
    /// Problems with the value, as `(sub-key, message)`; the sub-key may be empty.
    fn problems(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// For a choice among named options (a unit-variant enum): the RON text of each option,
    /// which front ends offer as a menu instead of a text field. Empty for other fields.
    fn choices() -> &'static [&'static str]
    where
        Self: Sized,
    {
        &[]
    }
}

impl ExtraField for bool {}
impl ExtraField for u64 {}
impl ExtraField for String {}

/// A cross-parameter check: `lower` must not exceed `upper`. Returns the problem under the
/// lower field's key with a message naming both fields, their values and `why` (what the
/// model assumes, in plain words).
pub fn not_above(
    lower: (&str, &str, f64),
    upper: (&str, &str, f64),
    why: &str,
) -> Option<(String, String)> {
    let (lower_key, lower_symbol, lower_value) = lower;
    let (upper_key, upper_symbol, upper_value) = upper;
    (lower_value > upper_value).then(|| {
        (
            lower_key.to_string(),
            format!(
                "{lower_symbol} = {} ({lower_key}) is above {upper_symbol} = {} ({upper_key}): \
                 {why}",
                crate::util::number::format_number(lower_value),
                crate::util::number::format_number(upper_value),
            ),
        )
    })
}

/// Parses a number the way users type it (`2`, `0.45`, `1e5`, `-3.2E-4`).
pub fn parse_number(key: &str, text: &str) -> Result<f64, ParamError> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| ParamError::Invalid(format!("{key}: `{text}` is not a number")))
}

/// Declares a parameter struct with per-field metadata.
///
/// ```ignore
/// param_struct! {
///     /// LuGre parameters.
///     pub struct LuGreParams {
///         /// Bristle stiffness.
///         sigma0_n_per_m: "sigma0" = 1e5, "Bristle stiffness", "σ₀", "N/m", [1e3, 1e8], Log;
///         /// Number of elements (flags after the scale: `integer`, `restart`).
///         elements: "elements" = 4.0, "Elements", "M", "", [1.0, 64.0], Linear, integer, restart;
///     }
///     extra {
///         /// Extra non-numeric fields (serde only).
///         shape: Shape = Shape::Gauss;
///     }
///     // Optional: checks between fields (each value in range, the set contradicting the
///     // model's assumptions), `Fn(&Self) -> impl IntoIterator<Item = (String, String)>`;
///     // see [`not_above`].
///     consistency = |p: &Self| not_above(("f_c", "F_C", p.f_c), ("f_s", "F_S", p.f_s), "…");
/// }
/// ```
#[macro_export]
macro_rules! param_struct {
    (
        $(#[$smeta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $key:literal = $default:expr, $label:literal, $symbol:literal,
                    $unit:literal, [$min:expr, $max:expr], $scale:ident $(, $flag:ident)*;
            )*
        }
        $(extra {
            $(
                $(#[doc = $xdoc:literal])*
                $xfield:ident : $xkey:literal : $xty:ty = $xdefault:expr;
            )*
        })?
        $(consistency = $consistency:expr;)?
    ) => {
        $(#[$smeta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[doc = $doc])*
                #[serde(rename = $key)]
                pub $field: f64,
            )*
            $($(
                $(#[doc = $xdoc])*
                #[serde(rename = $xkey)]
                pub $xfield: $xty,
            )*)?
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    $($field: $default,)*
                    $($($xfield: $xdefault,)*)?
                }
            }
        }

        impl $name {
            /// Metadata of the numeric fields, in declaration order.
            pub const META: &'static [$crate::params::ParamMeta] = &[
                $($crate::params::ParamMeta {
                    key: $key,
                    label: $label,
                    symbol: $symbol,
                    unit: $unit,
                    default: $default,
                    min: $min,
                    max: $max,
                    scale: $crate::params::Scale::$scale,
                    integer: $crate::param_struct!(@integer $($flag)*),
                    restart: $crate::param_struct!(@restart $($flag)*),
                    help: concat!($($doc),*),
                },)*
            ];

            /// Keys of the non-numeric fields.
            pub const EXTRA_KEYS: &'static [&'static str] = &[$($($xkey,)*)?];
        }

        impl $crate::params::ParamSet for $name {
            fn meta(&self) -> &'static [$crate::params::ParamMeta] {
                Self::META
            }

            fn get(&self, key: &str) -> Option<f64> {
                match key {
                    $($key => Some(self.$field),)*
                    _ => None,
                }
            }

            fn set(&mut self, key: &str, value: f64) -> Result<(), $crate::params::ParamError> {
                let meta = Self::META.iter().find(|m| m.key == key).ok_or_else(|| {
                    $crate::params::ParamError::UnknownKey {
                        key: key.to_string(),
                        valid: Self::valid_keys(),
                    }
                })?;
                meta.check(value).map_err($crate::params::ParamError::Invalid)?;
                match key {
                    $($key => self.$field = value,)*
                    _ => {}
                }
                Ok(())
            }

            fn problems(&self) -> Vec<(String, String)> {
                #[allow(unused_mut)]
                let mut out: Vec<(String, String)> = Self::META
                    .iter()
                    .filter_map(|m| {
                        let v = $crate::params::ParamSet::get(self, m.key)?;
                        m.check(v).err().map(|e| (m.key.to_string(), e))
                    })
                    .collect();
                $($(
                    for (sub, msg) in $crate::params::ExtraField::problems(&self.$xfield) {
                        let key = if sub.is_empty() {
                            $xkey.to_string()
                        } else {
                            format!("{}.{}", $xkey, sub)
                        };
                        out.push((key, msg));
                    }
                )*)?
                $(out.extend(($consistency)(self));)?
                out
            }

            fn extra_keys(&self) -> &'static [&'static str] {
                Self::EXTRA_KEYS
            }

            fn extra_choices(&self, key: &str) -> &'static [&'static str] {
                match key {
                    $($($xkey => <$xty as $crate::params::ExtraField>::choices(),)*)?
                    _ => &[],
                }
            }

            fn get_text(&self, key: &str) -> Option<String> {
                if let Some(v) = $crate::params::ParamSet::get(self, key) {
                    return Some(format!("{v}"));
                }
                match key {
                    $($($xkey => $crate::preset::ron_io::to_compact(&self.$xfield).ok(),)*)?
                    _ => None,
                }
            }

            fn set_text(&mut self, key: &str, text: &str) -> Result<(), $crate::params::ParamError> {
                if Self::META.iter().any(|m| m.key == key) {
                    let value = $crate::params::parse_number(key, text)?;
                    return self.set(key, value);
                }
                match key {
                    $($($xkey => {
                        self.$xfield = $crate::preset::ron_io::parse_fragment::<$xty>(text)
                            .map_err(|e| $crate::params::ParamError::Invalid(
                                format!("{}: {e}", $xkey)))?;
                        Ok(())
                    })*)?
                    _ => Err($crate::params::ParamError::UnknownKey {
                        key: key.to_string(),
                        valid: Self::valid_keys(),
                    }),
                }
            }
        }

        impl $name {
            fn valid_keys() -> String {
                Self::META
                    .iter()
                    .map(|m| m.key)
                    .chain(Self::EXTRA_KEYS.iter().copied())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
    };
    (@integer) => { false };
    (@integer integer $($rest:ident)*) => { true };
    (@integer $other:ident $($rest:ident)*) => { $crate::param_struct!(@integer $($rest)*) };
    (@restart) => { false };
    (@restart restart $($rest:ident)*) => { true };
    (@restart $other:ident $($rest:ident)*) => { $crate::param_struct!(@restart $($rest)*) };
}
