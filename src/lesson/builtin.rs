//! Lessons shipped in `presets/lessons/`, embedded in the binary.

use super::{Lesson, LessonError};

/// `(file stem, RON text)` of every built-in lesson, in teaching order.
pub static BUILTIN_LESSONS: &[(&str, &str)] = &[
    (
        "coulomb_and_stick_slip",
        include_str!("../../presets/lessons/coulomb_and_stick_slip.ron"),
    ),
    (
        "stribeck_curve",
        include_str!("../../presets/lessons/stribeck_curve.ron"),
    ),
    (
        "belt_speed_and_stick_slip",
        include_str!("../../presets/lessons/belt_speed_and_stick_slip.ron"),
    ),
    (
        "dwell_time",
        include_str!("../../presets/lessons/dwell_time.ron"),
    ),
    (
        "presliding_memory",
        include_str!("../../presets/lessons/presliding_memory.ron"),
    ),
    (
        "belt_joint_spectra",
        include_str!("../../presets/lessons/belt_joint_spectra.ron"),
    ),
    (
        "earthquake_chains",
        include_str!("../../presets/lessons/earthquake_chains.ron"),
    ),
];

/// The built-in lesson `stem`, parsed.
pub fn load(stem: &str) -> Option<Result<Lesson, LessonError>> {
    BUILTIN_LESSONS
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(s, text)| Lesson::from_ron(text, &format!("<builtin lesson:{s}>")))
}
