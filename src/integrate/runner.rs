//! One handle over a flow ([`Simulation`]), a map ([`MapRun`]) or a system's own scheme
//! ([`Engine`]), for the front ends that run whatever system a preset names.

use super::driver::{SampleSink, Stats};
use super::map::{MAP_SECTION, MapRun};
use super::{Column, Engine, SimError, Simulation};
use crate::systems::{Restart, SystemSpec};

/// A running flow or map.
pub enum Runner {
    /// A continuous-time (hybrid) system.
    Flow(Box<Simulation>),
    /// A discrete-time system; `t` counts iterations.
    Map(MapRun),
    /// A flow run by the system's own exact scheme.
    Engine(Box<dyn Engine>),
}

impl Runner {
    /// Runs until `t ≥ t_stop`, pushing the sample rows (see [`Simulation::advance`]).
    pub fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        match self {
            Runner::Flow(s) => s.advance(t_stop, sink),
            Runner::Map(m) => m.advance(t_stop, sink),
            Runner::Engine(e) => e.advance(t_stop, sink),
        }
    }

    /// Current time (iteration index for maps).
    pub fn time_s(&self) -> f64 {
        match self {
            Runner::Flow(s) => s.time_s(),
            Runner::Map(m) => m.time_s(),
            Runner::Engine(e) => e.time_s(),
        }
    }

    /// Current state.
    pub fn state(&self) -> &[f64] {
        match self {
            Runner::Flow(s) => s.state(),
            Runner::Map(m) => m.state(),
            Runner::Engine(e) => e.state(),
        }
    }

    /// Output column names: `t`, the system's columns, `event`.
    pub fn column_names(&self) -> Vec<String> {
        match self {
            Runner::Flow(s) => s.column_names(),
            Runner::Map(m) => m.column_names(),
            Runner::Engine(e) => e.columns().into_iter().map(|c| c.name).collect(),
        }
    }

    /// Output columns with their meaning: `t`, the system's columns, `event`.
    pub fn columns(&self) -> Vec<Column> {
        match self {
            Runner::Flow(s) => s.columns(),
            Runner::Map(m) => m.columns(),
            Runner::Engine(e) => e.columns(),
        }
    }

    /// Takes new parameters while running, keeping the state, modes and law memories; on
    /// `Err` the run is unchanged and must be started afresh.
    pub fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        match self {
            Runner::Flow(s) => s.reconfigure(spec),
            Runner::Map(m) => m.reconfigure(spec),
            Runner::Engine(e) => e.reconfigure(spec),
        }
    }

    /// Integrator name ("map iteration" for maps).
    pub fn method_name(&self) -> &'static str {
        match self {
            Runner::Flow(s) => s.method_name(),
            Runner::Map(_) => "map iteration",
            Runner::Engine(e) => e.method_name(),
        }
    }

    /// Names of the Poincaré sections (a map offers "every iterate").
    pub fn section_names(&self) -> Vec<String> {
        match self {
            Runner::Flow(s) => s.model().section_names(),
            Runner::Map(_) => vec![MAP_SECTION.to_string()],
            Runner::Engine(e) => e.section_names(),
        }
    }

    /// Turns Poincaré tracking on (the stroboscopic period applies to flows only).
    pub fn track_sections(&mut self, strobe_period_s: Option<f64>) {
        match self {
            Runner::Flow(s) => s.track_sections(strobe_period_s),
            Runner::Map(m) => m.track_sections(),
            Runner::Engine(e) => e.track_sections(strobe_period_s),
        }
    }

    /// Run counters.
    pub fn stats(&self) -> Stats {
        match self {
            Runner::Flow(s) => s.stats(),
            Runner::Map(m) => m.stats(),
            Runner::Engine(e) => e.stats(),
        }
    }

    /// The flow simulation, if this is one.
    pub fn as_flow_mut(&mut self) -> Option<&mut Simulation> {
        match self {
            Runner::Flow(s) => Some(s),
            Runner::Map(_) | Runner::Engine(_) => None,
        }
    }

    /// The map run, if this is one.
    pub fn as_map_mut(&mut self) -> Option<&mut MapRun> {
        match self {
            Runner::Flow(_) | Runner::Engine(_) => None,
            Runner::Map(m) => Some(m),
        }
    }
}
