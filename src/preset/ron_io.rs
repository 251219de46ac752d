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
///
/// The error says what was expected (`seed: `1.5` is not a whole number …`), with RON's own
/// message and position in parentheses.
pub fn parse_fragment<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    options()
        .from_str(text)
        .map_err(|e| format!("`{}` is not {} ({e})", text.trim(), expected::<T>()))
}

/// What a value of type `T` looks like, in words.
fn expected<T>() -> String {
    let name = std::any::type_name::<T>();
    match name {
        "u64" => "a whole number from 0 to 18446744073709551615".into(),
        "bool" => "true or false".into(),
        "alloc::string::String" => "text in double quotes".into(),
        _ => {
            let short = name.rsplit("::").next().unwrap_or(name);
            format!("a valid {short} (see README, \"Preset format\")")
        }
    }
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
