//! A run with an integration scheme of its own: a system whose structure allows a much
//! cheaper exact scheme than stepping all of its states together (the Carlson–Langer chain,
//! whose stuck blocks move not at all and break away at times known in closed form) provides
//! one, and [`Runner`](super::Runner) drives it like a [`Simulation`](super::Simulation):
//! the same rows, sections, counters and live parameter changes. Analyses keep using the
//! system's [`Model`](super::Model) through the generic driver.

use super::driver::{SampleSink, Stats};
use super::{Column, SimError};
use crate::systems::{Restart, SystemSpec};

/// A running system with its own integration scheme.
pub trait Engine: Send {
    /// Runs until `t ≥ t_stop`, pushing every regular sample with time `≤ t_stop`.
    fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError>;
    /// Current time.
    fn time_s(&self) -> f64;
    /// Current state, laid out as the system's [`Model`](super::Model) state.
    fn state(&self) -> &[f64];
    /// Output columns: time, the system's columns, the event flag.
    fn columns(&self) -> Vec<Column>;
    /// Takes new parameters in place; `Err` when the run must restart.
    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart>;
    /// Name of the scheme, for the status line.
    fn method_name(&self) -> &'static str;
    /// Names of the Poincaré sections the engine reports.
    fn section_names(&self) -> Vec<String>;
    /// Turns Poincaré tracking on.
    fn track_sections(&mut self, strobe_period_s: Option<f64>);
    /// Run counters.
    fn stats(&self) -> Stats;
}
