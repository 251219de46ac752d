//! What the estimator asks of a fit: weighted residuals at a parameter vector.

/// A least-squares problem `min Σ w_i (ŷ_i(p) − y_i)²` (MODELS §4.10).
pub trait FitProblem: Sync {
    /// Number of residuals (all data sets together).
    fn n_residuals(&self) -> usize;

    /// Fills `out` with the weighted residuals `√w_i·(ŷ_i(p) − y_i)` at the parameters `p`
    /// (in their own units, in the order of the fit's free parameters). An error (a simulation
    /// that diverged, a parameter set a law refuses) says why, in words for the user.
    fn residuals(&self, p: &[f64], out: &mut [f64]) -> Result<(), String>;

    /// Step of the central differences in the scaled coordinates (`ln p` or `p/|p₀|`): small
    /// for closed forms, larger for simulated outputs, whose tolerance noise the difference
    /// must stay well above.
    fn difference_step(&self) -> f64 {
        1e-6
    }
}
