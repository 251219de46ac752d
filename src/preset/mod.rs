//! Presets: a versioned RON document holding everything needed to reproduce a run — system,
//! friction law (one for every contact, per-contact overrides, seeded spread of parameters
//! across contacts), optional load noise and run settings — plus a name and a description
//! shown to students.
//!
//! Schema history: version 1 had one law for the whole system; version 2 adds `contacts` and
//! `spread` (both optional). A version-1 file reads unchanged and is upgraded on read; saving
//! writes version 2.
//!
//! Reading is strict where it matters: unknown fields, wrong types, non-finite and out-of-range
//! values are rejected with `file:line:col` and the field's dotted path; fields left out take
//! their documented defaults, so a preset saved today still opens when fields are added later.

pub mod builtin;
pub mod contacts;
pub(crate) mod error;
mod locate;
mod playback;
pub mod ron_io;
mod set_path;

pub use contacts::{ContactOverride, Distribution, LawSpread};
pub use error::{PresetError, Problem};
pub use locate::locate_field;
pub use playback::Playback;

use serde::{Deserialize, Serialize};

use crate::integrate::driver::DriverSettings;
use crate::integrate::{MapModel, MapRun, Method, Model, Runner, SimError, Simulation};
use crate::laws::{LawConfig, NoiseParams};
use crate::params::{ExtraField, ParamSet};
use crate::systems::{SystemConfig, SystemSpec};

/// Schema version written by this build; older versions are read and upgraded.
pub const SCHEMA_VERSION: u32 = 2;
/// Oldest schema version this build reads.
pub const OLDEST_SCHEMA_VERSION: u32 = 1;

impl ExtraField for Method {}

crate::param_struct! {
    /// How a preset is run.
    pub struct RunSettings {
        /// Model time simulated by `tribolab run` (the GUI runs on until paused).
        duration_s: "duration" = 60.0, "Duration", "T", "s", [0.0, 1e7], Linear;
        /// Spacing of the regular output samples (stick/slip events are added).
        output_interval_s: "output_interval" = 1e-3, "Output interval", "Δt_out", "s", [1e-15, 10.0], Log;
        /// Relative tolerance of the adaptive integrators.
        rtol: "rtol" = 1e-8, "Relative tolerance", "rtol", "", [1e-13, 1e-3], Log;
        /// Step of the fixed-step RK4 integrator.
        rk4_dt_s: "rk4_dt" = 1e-5, "RK4 step", "Δt", "s", [1e-16, 0.1], Log;
    }
    extra {
        /// Integration method (Auto picks Rodas4 or Dormand–Prince from the law).
        integrator: "integrator": Method = Method::Auto;
    }
}

/// A complete, reproducible experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preset {
    /// Schema version (see [`SCHEMA_VERSION`]).
    pub version: u32,
    /// Short title.
    pub name: String,
    /// What the preset shows, for students (plain language, no source codes).
    pub description: String,
    /// Sources, parameter provenance and research notes, kept apart from the student text.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Mechanical system.
    pub system: SystemConfig,
    /// Friction law of every contact that has no law of its own.
    pub law: LawConfig,
    /// Contacts with their own law (schema v2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contacts: Vec<ContactOverride>,
    /// Seeded random spread of law parameters across the contacts (schema v2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spread: Vec<LawSpread>,
    /// Optional stochastic normal-load fluctuation (applies to any law).
    pub noise: Option<NoiseParams>,
    /// Run settings.
    pub run: RunSettings,
    /// How the window plays the run when the preset opens (speed, history shown).
    #[serde(skip_serializing_if = "Playback::is_default")]
    pub playback: Playback,
}

impl Default for Preset {
    fn default() -> Self {
        Self {
            version: SCHEMA_VERSION,
            name: "Untitled".into(),
            description: String::new(),
            notes: String::new(),
            system: SystemConfig::default(),
            law: LawConfig::default(),
            contacts: Vec::new(),
            spread: Vec::new(),
            noise: None,
            run: RunSettings::default(),
            playback: Playback::default(),
        }
    }
}

impl Preset {
    /// Parses and validates preset text; `source` names it in messages (a path or `<builtin>`).
    pub fn from_ron(text: &str, source: &str) -> Result<Self, PresetError> {
        let mut preset = error::parse(text, source)?;
        let problems = preset.problems();
        if !problems.is_empty() {
            return Err(PresetError::invalid(source, text, problems));
        }
        // Every older version is a subset of this one: upgrading is only the number.
        preset.version = SCHEMA_VERSION;
        Ok(preset)
    }

    /// Reads and validates a preset file.
    pub fn load(path: &std::path::Path) -> Result<Self, PresetError> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| PresetError::io(&source, format!("cannot read the file: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| not_utf8(&source, e.as_bytes(), &e))?;
        Self::from_ron(&text, &source)
    }

    /// Pretty RON text of the preset.
    pub fn to_ron(&self) -> Result<String, String> {
        ron_io::to_pretty(self)
    }

    /// Writes the preset atomically (temp file + rename).
    pub fn save(&self, path: &std::path::Path) -> Result<(), PresetError> {
        let source = path.display().to_string();
        let text = self.to_ron().map_err(|e| PresetError::io(&source, e))?;
        crate::util::atomic_write::write_string_atomically(path, &text)
            .map_err(|e| PresetError::io(&source, format!("cannot write the file: {e}")))
    }

    /// Every problem with the values, as `(dotted path, message)`.
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.version > SCHEMA_VERSION {
            out.push((
                "version".into(),
                format!(
                    "preset schema version {} is newer than this tribolab understands ({}); \
                     update tribolab",
                    self.version, SCHEMA_VERSION
                ),
            ));
        } else if self.version < OLDEST_SCHEMA_VERSION {
            out.push((
                "version".into(),
                format!(
                    "preset schema version {} does not exist; versions {OLDEST_SCHEMA_VERSION} \
                     to {SCHEMA_VERSION} are read",
                    self.version
                ),
            ));
        }
        let sections: [(&str, Option<&dyn ParamSet>); 5] = [
            ("system", Some(self.system.params())),
            ("law", Some(self.law.params())),
            ("noise", self.noise.as_ref().map(|n| n as &dyn ParamSet)),
            ("run", Some(&self.run)),
            ("playback", Some(&self.playback)),
        ];
        for (prefix, params) in sections {
            if let Some(p) = params {
                for (key, msg) in p.problems() {
                    out.push((format!("{prefix}.{key}"), msg));
                }
            }
        }
        out.extend(contacts::problems(
            &self.law,
            &self.contacts,
            &self.spread,
            self.system.n_contacts(),
            self.system.info().name,
        ));
        if self.noise.is_some() && !self.system.uses_law() {
            out.push((
                "noise".into(),
                format!(
                    "the {} has no normal load to modulate; remove `noise`",
                    self.system.info().name
                ),
            ));
        }
        out
    }

    /// Sets one field by dotted path from text (`system.mass=2`, `law=LuGre`, `law.sign=Tanh(1e-4)`).
    pub fn set_path(&mut self, path: &str, value: &str) -> Result<(), String> {
        set_path::set_path(self, path, value)
    }

    /// The law of every contact, resolved from `law`, `contacts` and `spread`.
    pub fn contact_laws(&self) -> Vec<LawConfig> {
        contacts::resolve(
            &self.law,
            &self.contacts,
            &self.spread,
            self.system.n_contacts(),
        )
    }

    /// The system with one resolved law per contact and the load noise: what a model is built
    /// from and what a running model takes live.
    pub fn spec(&self) -> SystemSpec {
        SystemSpec {
            system: self.system.clone(),
            laws: self.contact_laws(),
            noise: self.noise.clone(),
        }
    }

    /// The law of contact `index` (from 0), after overrides and spread (resolving that
    /// contact only).
    pub fn contact_law(&self, index: usize) -> LawConfig {
        contacts::resolve_one(&self.law, &self.contacts, &self.spread, index)
    }

    /// Builds the flow model with its initial state (maps: a stand-in that refuses to start;
    /// see [`SystemSpec::build_flow`]).
    pub fn build_model(&self) -> (Box<dyn Model + Send>, Vec<f64>) {
        self.spec().build_flow()
    }

    /// Builds the map with its initial state; `None` for flows.
    pub fn build_map(&self) -> Option<(Box<dyn MapModel + Send>, Vec<f64>)> {
        self.spec().build_map()
    }

    /// Builds the run this preset describes, at `t = 0`: the system's own scheme where it
    /// has one for these settings, else a [`Simulation`] for flows, a [`MapRun`] for
    /// discrete maps.
    pub fn build_runner(&self) -> Result<Runner, SimError> {
        if let Some(engine) = self.system.engine(&self.driver_settings()) {
            return Ok(Runner::Engine(engine?));
        }
        match self.build_map() {
            Some((map, x0)) => Ok(Runner::Map(MapRun::new(map, x0)?)),
            None => Ok(Runner::Flow(Box::new(self.build_simulation()?))),
        }
    }

    /// Driver settings of the run section.
    pub fn driver_settings(&self) -> DriverSettings {
        let run = &self.run;
        DriverSettings {
            method: run.integrator,
            rtol: run.rtol,
            rk4_dt_s: run.rk4_dt_s,
            output_interval_s: run.output_interval_s,
        }
    }

    /// Builds the simulation this preset describes, at `t = 0` (flows only: a discrete map
    /// fails with [`SimError::Model`]; see [`build_runner`](Self::build_runner)).
    pub fn build_simulation(&self) -> Result<Simulation, SimError> {
        let (model, y0) = self.build_model();
        Simulation::new(model, y0, 0.0, self.driver_settings())
    }
}

/// The error of a preset file that is not UTF-8 text, at the line and column of its first
/// invalid byte.
fn not_utf8(source: &str, bytes: &[u8], e: &std::string::FromUtf8Error) -> PresetError {
    let at = e.utf8_error().valid_up_to();
    let valid = String::from_utf8_lossy(&bytes[..at]);
    let line = valid.matches('\n').count() + 1;
    let col = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    PresetError {
        source: source.to_string(),
        problems: vec![error::Problem {
            line,
            col,
            path: String::new(),
            message: format!(
                "the file is not UTF-8 text (byte 0x{:02X}); save it as UTF-8",
                bytes[at]
            ),
        }],
    }
}
