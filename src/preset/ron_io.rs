//! RON reading and writing with tribolab's dialect: `Some(..)` may be omitted and enum variants
//! holding a struct take their fields directly, so a preset reads `law: LuGre(sigma0: 1e5)`.

use ron::extensions::Extensions;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The extensions enabled when reading (also accepted: the plain forms).
pub fn extensions() -> Extensions {
    Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES
}

/// Reader options.
pub fn options() -> ron::Options {
    ron::Options::default().with_default_extension(extensions())
}

/// Parses a RON fragment such as `Tanh(1e-4)` or `Rodas4` into a value.
pub fn parse_fragment<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    options().from_str(text).map_err(|e| e.to_string())
}

/// Pretty RON text of a value, with the extensions header.
pub fn to_pretty<T: Serialize>(value: &T) -> Result<String, String> {
    let cfg = ron::ser::PrettyConfig::new()
        .extensions(extensions())
        .struct_names(false)
        .separate_tuple_members(false)
        .indentor("    ".to_string());
    options()
        .to_string_pretty(value, cfg)
        .map_err(|e| e.to_string())
}

/// One-line RON text of a value (for editing a field in place).
pub fn to_compact<T: Serialize>(value: &T) -> Result<String, String> {
    ron::Options::default()
        .with_default_extension(extensions())
        .to_string(value)
        .map_err(|e| e.to_string())
}
