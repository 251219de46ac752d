//! The Lorenz flow, a reference chaotic system for checking the Lyapunov tools (MODELS §5):
//! ```text
//! ẋ = σ(y − x),   ẏ = x(ρ − z) − y,   ż = xy − βz
//! ```
//! With σ = 10, ρ = 28, β = 8/3: λ ≈ (0.906, 0, −14.572), Σλ = −(σ + 1 + β) (the divergence
//! `tr J` is constant), Kaplan–Yorke dimension ≈ 2.06.

use super::{Built, ConfigOf, Layout, Restart, SystemKind, SystemSpec};
use crate::integrate::{Column, Role, Model};
use crate::laws::{LawConfig, NoiseParams};

/// Equation shown in the GUI.
pub const EQUATION: &str = "ẋ = σ(y − x),  ẏ = x(ρ − z) − y,  ż = xy − βz";

crate::param_struct! {
    /// Lorenz parameters (defaults: the classic chaotic set of Lorenz 1963).
    pub struct LorenzParams {
        /// Prandtl number.
        sigma: "sigma" = 10.0, "Prandtl number", "σ", "", [0.0, 100.0], Linear;
        /// Rayleigh number relative to its critical value.
        rho: "rho" = 28.0, "Rayleigh number", "ρ", "", [0.0, 500.0], Linear;
        /// Geometric factor of the convection cell.
        beta: "beta" = 8.0 / 3.0, "Geometric factor", "β", "", [0.0, 20.0], Linear;
        /// Initial x.
        initial_x: "initial_x" = 1.0, "Initial x", "x₀", "", [-100.0, 100.0], Linear, restart;
        /// Initial y.
        initial_y: "initial_y" = 1.0, "Initial y", "y₀", "", [-100.0, 100.0], Linear, restart;
        /// Initial z.
        initial_z: "initial_z" = 1.0, "Initial z", "z₀", "", [-100.0, 500.0], Linear, restart;
    }
}

impl SystemKind for LorenzParams {
    const NAME: &'static str = "Lorenz flow (reference)";
    const EQUATION: &'static str = EQUATION;

    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        Layout::default()
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = Lorenz::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

/// The Lorenz system as a [`Model`] (time in model seconds).
#[derive(Clone, Debug)]
pub struct Lorenz {
    params: LorenzParams,
}

impl Lorenz {
    /// The flow with these parameters.
    pub fn new(params: LorenzParams) -> Self {
        Self { params }
    }

    /// Parameters.
    pub fn params(&self) -> &LorenzParams {
        &self.params
    }

    /// Replaces the parameters (live change).
    pub fn set_params(&mut self, params: LorenzParams) {
        self.params = params;
    }

    /// Initial state `[x₀, y₀, z₀]`.
    pub fn initial_state(&self) -> Vec<f64> {
        let p = &self.params;
        vec![p.initial_x, p.initial_y, p.initial_z]
    }
}

impl Model for Lorenz {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        3
    }

    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into(), "z".into()]
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales.iter_mut().for_each(|s| *s = 10.0);
    }

    fn is_autonomous(&self) -> bool {
        true
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        dy[0] = p.sigma * (y[1] - y[0]);
        dy[1] = y[0] * (p.rho - y[2]) - y[1];
        dy[2] = y[0] * y[1] - p.beta * y[2];
    }

    /// `3 × 3` (no quadratures).
    fn jacobian(&self, _t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        jac.copy_from_slice(&[
            -p.sigma,
            p.sigma,
            0.0,
            p.rho - y[2],
            -1.0,
            -y[0],
            y[1],
            y[0],
            -p.beta,
        ]);
        true
    }

    fn columns(&self) -> Vec<Column> {
        vec![
            Column::new("x", "").role(Role::State(0)),
            Column::new("y", "").role(Role::State(1)),
            Column::new("z", "").role(Role::State(2)),
        ]
    }

    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(&y[..3]);
    }

    fn section_names(&self) -> Vec<String> {
        vec!["z = ρ − 1, falling".into()]
    }

    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = (self.params.rho - 1.0) - y[2];
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = LorenzParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        self.set_params(params.clone());
        Ok(())
    }

    fn prefers_implicit(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analytic_jacobian_matches_differences() {
        let m = Lorenz::new(LorenzParams::default());
        let (t, y) = (0.0, [3.0, -2.0, 20.0]);
        let mut jac = [0.0; 9];
        assert!(m.jacobian(t, &y, &mut jac));
        let (mut fp, mut fm) = ([0.0; 3], [0.0; 3]);
        for j in 0..3 {
            let (mut yp, mut ym) = (y, y);
            yp[j] += 1e-6;
            ym[j] -= 1e-6;
            m.rhs(t, &yp, &mut fp);
            m.rhs(t, &ym, &mut fm);
            for i in 0..3 {
                let d = (fp[i] - fm[i]) / 2e-6;
                assert!((d - jac[i * 3 + j]).abs() < 1e-7, "J[{i}][{j}]");
            }
        }
    }
}
