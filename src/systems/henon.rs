//! The Hénon map (Hénon 1976), a reference two-dimensional chaotic map (MODELS §5):
//! ```text
//! x_{n+1} = 1 − a·x_n² + y_n,    y_{n+1} = b·x_n
//! ```
//! The Jacobian determinant is `−b` at every point, so `λ₁ + λ₂ = ln|b|` exactly; with
//! a = 1.4, b = 0.3: λ ≈ (0.419, −1.623).

use super::{Built, ConfigOf, Layout, Restart, SystemKind, SystemSpec};
use crate::integrate::{Column, Role, MapModel};
use crate::laws::{LawConfig, NoiseParams};

/// Equation shown in the GUI.
pub const EQUATION: &str = "x' = 1 − a·x² + y,   y' = b·x";

crate::param_struct! {
    /// Hénon-map parameters (defaults: Hénon's classic chaotic set).
    pub struct HenonParams {
        /// Quadratic coefficient.
        a: "a" = 1.4, "Nonlinearity", "a", "", [0.0, 2.0], Linear;
        /// Contraction (the Jacobian determinant is −b).
        b: "b" = 0.3, "Contraction", "b", "", [-1.0, 1.0], Linear;
        /// Initial x.
        initial_x: "initial_x" = 0.0, "Initial x", "x₀", "", [-2.0, 2.0], Linear, restart;
        /// Initial y.
        initial_y: "initial_y" = 0.0, "Initial y", "y₀", "", [-2.0, 2.0], Linear, restart;
    }
}

impl SystemKind for HenonParams {
    const NAME: &'static str = "Hénon map (reference)";
    const EQUATION: &'static str = EQUATION;
    const DISCRETE: bool = true;

    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        Layout::default()
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let map = HenonMap::new(self.clone());
        let x0 = map.initial_state();
        Built::Map(Box::new(map), x0)
    }
}

/// The Hénon map.
#[derive(Clone, Debug)]
pub struct HenonMap {
    params: HenonParams,
}

impl HenonMap {
    /// The map with these parameters.
    pub fn new(params: HenonParams) -> Self {
        Self { params }
    }

    /// Replaces the parameters (live change).
    pub fn set_params(&mut self, params: HenonParams) {
        self.params = params;
    }

    /// Initial state `[x₀, y₀]`.
    pub fn initial_state(&self) -> Vec<f64> {
        vec![self.params.initial_x, self.params.initial_y]
    }
}

impl MapModel for HenonMap {
    fn dim(&self) -> usize {
        2
    }

    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into()]
    }

    fn step(&self, x: &[f64], out: &mut [f64]) {
        let p = &self.params;
        out[0] = 1.0 - p.a * x[0] * x[0] + x[1];
        out[1] = p.b * x[0];
    }

    fn jacobian(&self, x: &[f64], jac: &mut [f64]) {
        let p = &self.params;
        jac.copy_from_slice(&[-2.0 * p.a * x[0], 1.0, p.b, 0.0]);
    }

    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x", "").role(Role::State(0)), Column::new("y", "").role(Role::State(1))]
    }

    fn observe(&self, x: &[f64], row: &mut [f64]) {
        row.copy_from_slice(&x[..2]);
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = HenonParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        self.set_params(params.clone());
        Ok(())
    }
}
