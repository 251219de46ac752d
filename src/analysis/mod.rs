//! Signal analysis on simulated or measured series (MODELS §4).

pub mod classify;
pub mod lyapunov;
pub mod spectrum;

pub use spectrum::{Peak, Spectrum, Window, amplitude_spectrum};
