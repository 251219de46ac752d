//! Presets shipped in `presets/`, embedded in the binary so the app works from any folder.

use super::{Preset, PresetError};

/// `(file stem, RON text)` of every built-in preset, in menu order.
pub static BUILTIN: &[(&str, &str)] = &[];

/// Loads a built-in preset by file stem.
pub fn load(stem: &str) -> Option<Result<Preset, PresetError>> {
    BUILTIN
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(s, text)| Preset::from_ron(text, &format!("<builtin:{s}>")))
}
