//! The logistic map, S1's example of sensitive dependence (Fig 15: `x' = 4x − 4x²`, two starts
//! 1e-5 apart):
//! ```text
//! x_{n+1} = r·x_n·(1 − x_n)
//! ```
//! A passive companion `x2` starts `Δx₀` away and shows the divergence; it feeds nothing back and
//! is left out of the Lyapunov spectrum. At r = 4 the exponent is ln 2.

use super::{Built, ConfigOf, Layout, Restart, SystemKind, SystemSpec};
use crate::integrate::{Column, MapModel, Role};
use crate::laws::{LawConfig, NoiseParams};

/// Equation shown in the GUI.
pub const EQUATION: &str = "x' = r·x·(1 − x), iterated from two starts Δx₀ apart";

crate::param_struct! {
    /// Logistic-map parameters (defaults: S1 Fig 15).
    pub struct LogisticParams {
        /// Growth rate (chaotic at 4; period doubling from 3).
        r: "r" = 4.0, "Growth rate", "r", "", [0.0, 4.0], Linear;
        /// Start of the trajectory.
        initial_x: "initial_x" = 0.3, "Initial x", "x₀", "", [0.0, 1.0], Linear, restart;
        /// Offset of the companion trajectory's start (S1 Fig 15: 1e-5).
        initial_offset: "initial_offset" = 1e-5, "Companion offset", "Δx₀", "", [-0.5, 0.5], Linear, restart;
    }
}

impl SystemKind for LogisticParams {
    const NAME: &'static str = "Logistic map (reference)";
    const EQUATION: &'static str = EQUATION;
    const DISCRETE: bool = true;

    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        Layout::default()
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let map = LogisticMap::new(self.clone());
        let x0 = map.initial_state();
        Built::Map(Box::new(map), x0)
    }
}

/// The logistic map with its companion trajectory.
#[derive(Clone, Debug)]
pub struct LogisticMap {
    params: LogisticParams,
}

impl LogisticMap {
    /// The map with these parameters.
    pub fn new(params: LogisticParams) -> Self {
        Self { params }
    }

    /// Replaces the parameters (live change).
    pub fn set_params(&mut self, params: LogisticParams) {
        self.params = params;
    }

    /// Initial state `[x₀, x₀ + Δx₀]` (the companion clamped to [0, 1]).
    pub fn initial_state(&self) -> Vec<f64> {
        let p = &self.params;
        vec![
            p.initial_x,
            (p.initial_x + p.initial_offset).clamp(0.0, 1.0),
        ]
    }

    fn f(&self, x: f64) -> f64 {
        self.params.r * x * (1.0 - x)
    }
}

impl MapModel for LogisticMap {
    fn dim(&self) -> usize {
        2
    }

    fn n_passive(&self) -> usize {
        1
    }

    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "x2".into()]
    }

    fn step(&self, x: &[f64], out: &mut [f64]) {
        out[0] = self.f(x[0]);
        out[1] = self.f(x[1]);
    }

    fn jacobian(&self, x: &[f64], jac: &mut [f64]) {
        jac[0] = self.params.r * (1.0 - 2.0 * x[0]);
    }

    fn columns(&self) -> Vec<Column> {
        vec![
            Column::new("x", "").role(Role::State(0)),
            Column::new("x2", "").role(Role::State(1)).symbol("x₂"),
            Column::new("separation", ""),
        ]
    }

    fn observe(&self, x: &[f64], row: &mut [f64]) {
        row[0] = x[0];
        row[1] = x[1];
        row[2] = x[1] - x[0];
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = LogisticParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        self.set_params(params.clone());
        Ok(())
    }
}
