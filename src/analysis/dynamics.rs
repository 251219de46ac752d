//! What the periodic-orbit and sweep tools need of a system: fresh models started from any state,
//! integrator settings, the forcing period, and the choice of Poincaré section (MODELS §4.2).

use crate::integrate::Model;
use crate::integrate::driver::{DriverSettings, SectionId};
use crate::laws::FrictionLaw;
use crate::preset::Preset;

/// A system the analysis tools can restart from any state.
pub trait Dynamics: Sync {
    /// A fresh model and its default initial state.
    fn build(&self) -> (Box<dyn Model + Send>, Vec<f64>);

    /// Integrator settings.
    fn settings(&self) -> DriverSettings;

    /// Period of the external forcing when the system is periodically forced [s].
    fn forcing_period_s(&self) -> Option<f64>;

    /// Whether the right-hand side has a random component (then no orbit is periodic).
    fn is_stochastic(&self) -> bool {
        false
    }

    /// Why tangent analyses (Floquet multipliers) do not apply to the system, when they do not.
    fn tangent_refusal(&self) -> Option<&'static str> {
        None
    }

    /// Whether the contact sticks exactly (a stick mode entered by events), so that stick onset
    /// is a natural Poincaré section.
    fn exact_stick(&self) -> bool {
        false
    }

    /// Whether the vector field is free of mode switches. Events that only end integration
    /// steps where the field has a kink (velocity reversals) do not count; mode switches
    /// (stick/slip, element slip) do, and need saltation matrices.
    fn smooth(&self) -> bool {
        self.build().0.n_events() == 0
    }
}

/// Belt-turn period when the belt joint forces the bench periodically (`None` otherwise).
///
/// The same rule as the GUI's stroboscopic section.
pub fn forcing_period_s(preset: &Preset) -> Option<f64> {
    preset.system.forcing_period_s()
}

/// A preset seen as [`Dynamics`].
#[derive(Clone, Debug)]
pub struct PresetDynamics {
    /// The preset.
    pub preset: Preset,
    /// Relative tolerance used instead of the preset's, if set.
    pub rtol: Option<f64>,
}

impl PresetDynamics {
    /// The preset's dynamics with its own tolerance.
    pub fn new(preset: Preset) -> Self {
        Self { preset, rtol: None }
    }
}

impl Dynamics for PresetDynamics {
    fn build(&self) -> (Box<dyn Model + Send>, Vec<f64>) {
        self.preset.build_model()
    }

    fn settings(&self) -> DriverSettings {
        let run = &self.preset.run;
        DriverSettings {
            method: run.integrator,
            rtol: self.rtol.unwrap_or(run.rtol),
            rk4_dt_s: run.rk4_dt_s,
            output_interval_s: run.output_interval_s,
        }
    }

    fn forcing_period_s(&self) -> Option<f64> {
        forcing_period_s(&self.preset)
    }

    fn is_stochastic(&self) -> bool {
        self.preset.noise.is_some() || self.preset.system.is_stochastic()
    }

    fn tangent_refusal(&self) -> Option<&'static str> {
        self.preset.system.tangent_refusal()
    }

    fn exact_stick(&self) -> bool {
        self.preset
            .contact_laws()
            .iter()
            .any(|l| l.build().stuck().is_some())
    }

    fn smooth(&self) -> bool {
        // The laws' own events switch modes; the systems' reversal events do not.
        self.preset
            .contact_laws()
            .iter()
            .all(|l| l.build().n_events() == 0)
    }
}

/// Which Poincaré section to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SectionChoice {
    /// Stroboscopic when the system is forced; otherwise the model's first section (stick onset
    /// on the belt–block) when the contact sticks exactly, else its second (turning point) when
    /// it has one.
    #[default]
    Auto,
    /// `t = k·T` of the forcing period.
    Stroboscopic,
    /// The model section with this index.
    Model(usize),
}

impl SectionChoice {
    /// Parses `auto`, `strobe`/`stroboscopic`, a section index, or the start of a model
    /// section's name (`stick`, `turning`).
    pub fn parse(text: &str, names: &[String]) -> Result<Self, String> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "auto" => return Ok(Self::Auto),
            "strobe" | "stroboscopic" => return Ok(Self::Stroboscopic),
            _ => {}
        }
        if let Ok(i) = t.parse::<usize>() {
            if i < names.len() {
                return Ok(Self::Model(i));
            }
        } else if let Some(i) = names
            .iter()
            .position(|n| !t.is_empty() && n.to_ascii_lowercase().starts_with(&t))
        {
            return Ok(Self::Model(i));
        }
        let mut known = vec!["auto".to_string(), "strobe".to_string()];
        known.extend(names.iter().enumerate().map(|(i, n)| format!("{i} ({n})")));
        Err(format!(
            "unknown section `{text}`; choose one of: {}",
            known.join(", ")
        ))
    }

    /// The choice as [`SectionChoice::parse`] reads it: `auto`, `strobe`, or the index.
    pub fn describe(self) -> String {
        match self {
            Self::Auto => "auto".into(),
            Self::Stroboscopic => "strobe".into(),
            Self::Model(i) => i.to_string(),
        }
    }

    /// The concrete section for a model with `n_sections` sections, forced with
    /// `forcing_period_s`, sticking exactly or not; `None` when there is nothing to choose (no
    /// forcing and no model section, or a stroboscopic section asked for an unforced system).
    pub fn resolve(
        self,
        n_sections: usize,
        forcing_period_s: Option<f64>,
        exact_stick: bool,
    ) -> Option<SectionId> {
        let n = n_sections;
        match self {
            Self::Stroboscopic => forcing_period_s.map(|_| SectionId::Stroboscopic),
            Self::Model(i) => (i < n).then_some(SectionId::Model(i)),
            Self::Auto if forcing_period_s.is_some() => Some(SectionId::Stroboscopic),
            Self::Auto if n == 0 => None,
            Self::Auto if exact_stick || n == 1 => Some(SectionId::Model(0)),
            Self::Auto => Some(SectionId::Model(1)),
        }
    }
}

/// Human name of a section of `model`.
pub fn section_name(model: &dyn Model, id: SectionId) -> String {
    match id {
        SectionId::Stroboscopic => "stroboscopic".into(),
        SectionId::Model(i) => model
            .section_names()
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("section {i}")),
    }
}
