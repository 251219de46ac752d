//! The stand-in flow model of a discrete map: it cannot be integrated and says so when a
//! simulation starts.

use crate::integrate::{Column, Model, SimError};

/// Stand-in returned by [`SystemSpec::build_flow`](super::SystemSpec::build_flow) for a discrete map: it cannot be integrated and
/// says so when a simulation starts.
pub(super) struct NotAFlow {
    pub(super) name: &'static str,
    pub(super) dim: usize,
}

impl Model for NotAFlow {
    fn dim(&self) -> usize {
        self.dim
    }

    fn state_names(&self) -> Vec<String> {
        (0..self.dim).map(|i| format!("x{i}")).collect()
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales.iter_mut().for_each(|s| *s = 1.0);
    }

    fn initialize(&mut self, t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        Err(SimError::Model {
            t_s: t,
            message: format!(
                "the {} is a discrete map, not a flow: run it with the map runner",
                self.name
            ),
        })
    }

    fn rhs(&self, _t: f64, _y: &[f64], dy: &mut [f64]) {
        dy.iter_mut().for_each(|d| *d = 0.0);
    }

    fn columns(&self) -> Vec<Column> {
        Vec::new()
    }

    fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}
}
