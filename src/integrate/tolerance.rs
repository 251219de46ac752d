//! Error tolerances: one relative tolerance chosen by the user, absolute tolerances derived from
//! the model's typical magnitudes (`atol_i = rtol · scale_i`), so one number sets the accuracy.

/// Relative tolerance and per-component absolute tolerances.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance of each state component.
    pub atol: Vec<f64>,
    /// Number of leading components that are error-controlled (quadratures excluded).
    pub n_controlled: usize,
}

impl Tolerance {
    /// Tolerances for a model with the given typical magnitudes.
    pub fn from_scales(rtol: f64, scales: &[f64], n_controlled: usize) -> Self {
        Self {
            rtol,
            atol: scales
                .iter()
                .map(|s| rtol * s.abs().max(f64::MIN_POSITIVE))
                .collect(),
            n_controlled,
        }
    }

    /// Weighted RMS norm of the error estimate `err` for a step from `y0` to `y1`.
    pub fn error_norm(&self, err: &[f64], y0: &[f64], y1: &[f64]) -> f64 {
        let n = self.n_controlled;
        let mut sum = 0.0;
        for i in 0..n {
            let sc = self.atol[i] + self.rtol * y0[i].abs().max(y1[i].abs());
            let e = err[i] / sc;
            sum += e * e;
        }
        (sum / n.max(1) as f64).sqrt()
    }
}
