//! Guided lessons: a sequence of steps a lecturer walks a class through. A step loads a preset
//! or changes parameters, names the view to look at, says in student language what to look
//! for and asks a question. Lessons are RON files like presets (the built-in ones in
//! `presets/lessons/`, embedded); front ends show a step and move between steps, the core
//! computes the session a step stands for.
//!
//! ```ron
//! (
//!     version: 1,
//!     title: "Stick–slip and the belt speed",
//!     summary: "Why a falling friction curve makes a block stick and slip, and when it stops.",
//!     steps: [
//!         (
//!             title: "A block that sticks and slips",
//!             preset: "stribeck_stick_slip",
//!             view: TimeTraces,
//!             look_for: "The velocity …",
//!             question: "How long does the block stick?",
//!         ),
//!         (title: "Faster belt", set: [("system.wheel_rpm", "60")], look_for: "…"),
//!     ],
//! )
//! ```
//!
//! The state of step k is the preset of the last step at or before k that names one, with the
//! `set` changes of every step from that one to k applied in order; steps before the first
//! preset leave the session as it is. So moving backwards and forwards always shows the same
//! state for the same step.

pub mod builtin;

use serde::{Deserialize, Serialize};

use crate::preset::Preset;

/// Schema version of lesson files.
pub const LESSON_VERSION: u32 = 1;

/// The view a step asks the class to look at (front ends map it to their tabs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    /// Time traces, phase plane, friction–velocity and spectrum together.
    Overview,
    /// Displacement, velocity and friction against time.
    TimeTraces,
    /// Velocity against displacement.
    PhasePlane,
    /// Friction against sliding velocity.
    FrictionVelocity,
    /// The amplitude spectrum.
    Spectrum,
    /// The Poincaré map.
    Poincare,
    /// The Lyapunov exponents.
    Lyapunov,
    /// The bifurcation diagram.
    Bifurcation,
    /// Slip events of a chain.
    SlipEvents,
    /// Velocity steps and holds of a load-point programme.
    StepsAndHolds,
    /// A characterisation rig's standard test.
    RigTest,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Short title.
    pub title: String,
    /// A built-in preset name, or a preset file (relative to the lesson file), loaded first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Parameter changes `(path, value)` as for `--set` (`system.wheel_rpm`, `law=Dahl`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<(String, String)>,
    /// The view to look at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
    /// What to look for, in student language.
    pub look_for: String,
    /// A question for the class.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
}

/// A guided lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Schema version ([`LESSON_VERSION`]).
    pub version: u32,
    /// Title.
    pub title: String,
    /// What the lesson is about, in a sentence or two.
    pub summary: String,
    /// Sources and notes for the lecturer (not shown to students).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// A lesson file that could not be read, or a step that cannot be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}{}: {message}", location.map_or_else(String::new, |(l, c)| format!(":{l}:{c}")))]
pub struct LessonError {
    /// The file (or `<builtin lesson:NAME>`).
    pub file: String,
    /// Line and column, for a syntax or type error.
    pub location: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl Lesson {
    /// Reads a lesson from RON text; `source` names it in errors.
    pub fn from_ron(text: &str, source: &str) -> Result<Self, LessonError> {
        // Optional fields are written without `Some(…)`, as in presets.
        let lesson: Lesson = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e: ron::error::SpannedError| LessonError {
                file: source.to_string(),
                location: Some((e.span.start.line, e.span.start.col)),
                message: if matches!(e.code, ron::Error::Eof)
                    || crate::preset::error::at_end(text, e.span.start.line, e.span.start.col)
                {
                    "unexpected end of file: a closing bracket, parenthesis or quote is \
                         missing"
                        .to_string()
                } else {
                    e.code.to_string()
                },
            })?;
        if lesson.steps.is_empty() {
            return Err(LessonError {
                file: source.to_string(),
                location: None,
                message: "the lesson has no steps".to_string(),
            });
        }
        if lesson.version != LESSON_VERSION {
            return Err(LessonError {
                file: source.to_string(),
                location: None,
                message: format!(
                    "version {} is not a lesson version this tribolab reads ({LESSON_VERSION})",
                    lesson.version
                ),
            });
        }
        Ok(lesson)
    }

    /// The preset step `k` stands for: the last preset named at or before `k` with the changes
    /// of every step from it to `k`; `None` when no step up to `k` names a preset (the session
    /// stays as it is). `load` resolves a preset name.
    pub fn state_at(
        &self,
        k: usize,
        load: &dyn Fn(&str) -> Result<Preset, String>,
    ) -> Result<Option<Preset>, String> {
        if self.steps.is_empty() {
            return Ok(None);
        }
        let k = k.min(self.steps.len() - 1);
        let Some(first) = (0..=k).rev().find(|&i| self.steps[i].preset.is_some()) else {
            return Ok(None);
        };
        let name = self.steps[first].preset.as_deref().unwrap_or_default();
        let mut preset = load(name).map_err(|e| format!("step {}: {e}", first + 1))?;
        for (i, step) in self.steps.iter().enumerate().take(k + 1).skip(first) {
            for (path, value) in &step.set {
                preset
                    .set_path(path, value)
                    .map_err(|e| format!("step {}: {path}={value}: {e}", i + 1))?;
            }
        }
        let problems = preset.problems();
        if let Some((path, message)) = problems.first() {
            return Err(format!("step {}: {path}: {message}", k + 1));
        }
        Ok(Some(preset))
    }

    /// Every problem of the lesson, each named by its step: no steps, empty texts, presets
    /// that do not load, changes that do not apply or leave a value out of range, a step before
    /// any preset that changes parameters. A change that fails is skipped, so the later steps
    /// are checked too.
    pub fn problems(&self, load: &dyn Fn(&str) -> Result<Preset, String>) -> Vec<String> {
        let mut out = Vec::new();
        if self.title.trim().is_empty() {
            out.push("the lesson has no title".to_string());
        }
        if self.steps.is_empty() {
            out.push("the lesson has no steps".to_string());
        }
        let mut current: Option<Preset> = None;
        let mut seen_preset = false;
        let mut reported: Vec<String> = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            if step.look_for.trim().is_empty() {
                out.push(format!("step {n}: look_for is empty"));
            }
            if let Some(name) = &step.preset {
                seen_preset = true;
                current = match load(name) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        out.push(format!("step {n}: {e}"));
                        None
                    }
                };
                reported.clear();
            }
            if !seen_preset && !step.set.is_empty() {
                out.push(format!(
                    "step {n}: changes parameters before any step loads a preset"
                ));
            }
            let Some(preset) = current.as_mut() else {
                continue;
            };
            for (path, value) in &step.set {
                let mut tried = preset.clone();
                match tried.set_path(path, value) {
                    Ok(()) => *preset = tried,
                    Err(e) => out.push(format!("step {n}: {path}={value}: {e}")),
                }
            }
            for (path, message) in preset.problems() {
                let text = format!("{path}: {message}");
                if !reported.contains(&text) {
                    out.push(format!("step {n}: {text}"));
                    reported.push(text);
                }
            }
        }
        out
    }
}

/// Resolves a preset name the way lessons do: a built-in preset, else a file relative to
/// `base` (the lesson file's folder).
pub fn load_preset(name: &str, base: Option<&std::path::Path>) -> Result<Preset, String> {
    let path = match base {
        Some(dir) => dir.join(name),
        None => std::path::PathBuf::from(name),
    };
    // A name written as a file (`my.ron`, `dir/x`) is the lecturer's file when it exists.
    let as_file = name.ends_with(".ron") || name.contains(['/', '\\']);
    if as_file && path.exists() {
        return Preset::load(&path).map_err(|e| e.to_string());
    }
    if let Some(r) = crate::preset::builtin::load(name.trim_end_matches(".ron")) {
        return r.map_err(|e| e.to_string());
    }
    if path.exists() {
        return Preset::load(&path).map_err(|e| e.to_string());
    }
    Err(format!(
        "`{name}` is neither a built-in preset{} nor a file",
        crate::util::suggest::hint(
            name,
            crate::preset::builtin::BUILTIN.iter().map(|(s, _)| *s)
        )
    ))
}

/// Whether a `.ron` file's text is a lesson rather than a preset: it has steps with texts to
/// look for (a preset has neither field).
pub fn looks_like_lesson(text: &str) -> bool {
    text.contains("steps:") && text.contains("look_for")
}
