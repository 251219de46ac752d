//! Signal analysis on simulated or measured series (MODELS §4).

pub mod cao;
pub mod catalogue_stats;
pub mod chain_catalogue;
pub mod classify;
pub mod divergence;
pub mod dynamics;
pub mod embedding;
pub mod energy;
pub mod error;
pub mod event_catalogue;
pub mod floquet;
pub mod linefit;
pub mod lyapunov;
pub mod magnitude_stats;
pub mod measured;
pub mod measured_error;
pub mod mutual_information;
pub mod neighbours;
pub mod parallel;
pub mod pipeline;
pub(crate) mod probe;
pub mod report;
pub mod resample;
pub mod response;
pub mod slip_events;
pub mod spectrogram;
pub mod spectrum;
pub mod sweep;
pub mod wolf;

pub use dynamics::{Dynamics, PresetDynamics, SectionChoice};
pub use embedding::{Embedding, Norm};
pub use error::SeriesError;
pub use floquet::{FloquetOptions, FloquetReport, floquet};
pub use neighbours::{Neighbour, NeighbourIndex};
pub use spectrum::{Peak, Spectrum, Window, amplitude_spectrum};
pub use sweep::{SweepControl, SweepError, SweepResult, SweepSpec, sweep};
