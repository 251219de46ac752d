//! A system with one friction law per contact: what a model is built from, and what a running
//! model takes when parameters change live.

use super::SystemConfig;
use crate::integrate::{MapModel, Model};
use crate::laws::{LawConfig, NoiseParams};

/// A system's parameters and the friction law of each of its contacts.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemSpec {
    /// The mechanical system.
    pub system: SystemConfig,
    /// One law per contact, in contact order (a preset resolves them from its law for every
    /// contact, per-contact overrides and seeded spread). Systems without contacts take none.
    pub laws: Vec<LawConfig>,
    /// Stochastic normal-load fluctuation applied to every contact, if any.
    pub noise: Option<NoiseParams>,
}

/// A built system: a flow (hybrid ODE) or a discrete map, with its initial state.
pub enum Built {
    /// Continuous-time model and `y₀`.
    Flow(Box<dyn Model + Send>, Vec<f64>),
    /// Discrete map and `x₀`.
    Map(Box<dyn MapModel + Send>, Vec<f64>),
}

/// Why a running model cannot take new parameters in place (the run then starts afresh).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Restart {
    /// The model does not take parameter changes while running.
    #[error("this system cannot take new parameters while it runs")]
    Unsupported,
    /// The change alters the model's structure (another system or law, another number of
    /// states or events) or leaves no consistent state.
    #[error("{0}")]
    Changed(String),
}

impl SystemSpec {
    /// The system with `law` on every contact.
    pub fn uniform(system: SystemConfig, law: &LawConfig, noise: Option<NoiseParams>) -> Self {
        let laws = vec![law.clone(); system.n_contacts()];
        Self {
            system,
            laws,
            noise,
        }
    }

    /// Builds the model or map with its initial state.
    pub fn build(&self) -> Built {
        self.system.build(&self.laws, self.noise.as_ref())
    }

    /// Builds the flow model with its initial state. A discrete map has no flow: its model
    /// here refuses to start ([`SimError::Model`](crate::integrate::SimError::Model) from
    /// `initialize`); use [`build`](Self::build) or `Preset::build_runner` for maps.
    pub fn build_flow(&self) -> (Box<dyn Model + Send>, Vec<f64>) {
        match self.build() {
            Built::Flow(model, y0) => (model, y0),
            Built::Map(map, x0) => {
                let name = self.system.info().name;
                let dim = map.dim();
                (Box::new(super::not_a_flow::NotAFlow { name, dim }), x0)
            }
        }
    }

    /// Builds the map with its initial state; `None` for flows.
    pub fn build_map(&self) -> Option<(Box<dyn MapModel + Send>, Vec<f64>)> {
        match self.build() {
            Built::Map(map, x0) => Some((map, x0)),
            Built::Flow(..) => None,
        }
    }

    /// Where steady sliding loses its stability with these laws
    /// ([`SystemKind::stability_boundaries`](super::SystemKind::stability_boundaries)).
    pub fn stability_boundaries(&self) -> Vec<super::StabilityBoundary> {
        self.system.stability_boundaries(&self.laws)
    }

    /// Checks that `laws` has one law per contact of the system.
    pub fn check_contacts(&self) -> Result<(), Restart> {
        let n = self.system.n_contacts();
        if self.laws.len() == n {
            Ok(())
        } else {
            Err(Restart::Changed(format!(
                "the {} has {n} contact(s) but {} law(s) were given",
                self.system.info().name,
                self.laws.len()
            )))
        }
    }
}
