//! Step-size control of the adaptive methods.

/// Step-size control. Implicit methods: Gustafsson's predictive correction (Hairer & Wanner,
/// *Solving ODE II*, §IV.8, as in RODAS) — the growth factor is the smaller of `0.9·err^(−1/q)`
/// and `(h/h_acc)·0.9·(err_acc/err²)^(1/q)` from the previous accepted step. Explicit methods:
/// the PI controller of DOPRI5 (Lund stabilisation, β = 0.04), `0.9·err^(−(1/q − 0.75β))·
/// err_acc^β`, which keeps stability-limited steps on stiff stretches from oscillating. After a
/// rejection the next step does not grow.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct StepControl {
    /// Size and error of the previous accepted step.
    pub(super) previous: Option<(f64, f64)>,
    /// Use the PI controller (explicit methods).
    pub(super) pi: bool,
}

impl StepControl {
    const SAFETY: f64 = 0.9;

    pub(super) fn accepted(&mut self, h: f64, err: f64, q: f64, after_rejection: bool) -> f64 {
        const BETA: f64 = 0.04;
        let err_floor = err.max(1e-10);
        let mut growth = Self::SAFETY * err_floor.powf(-1.0 / q);
        if let Some((h_acc, err_acc)) = self.previous {
            if self.pi {
                growth =
                    Self::SAFETY * err_floor.powf(-(1.0 / q - 0.75 * BETA)) * err_acc.powf(BETA);
            } else {
                let predictive =
                    (h / h_acc) * Self::SAFETY * (err_acc / (err_floor * err_floor)).powf(1.0 / q);
                growth = growth.min(predictive);
            }
        }
        growth = growth.clamp(0.2, 5.0);
        if after_rejection {
            growth = growth.min(1.0);
        }
        self.previous = Some((h, err.max(if self.pi { 1e-4 } else { 1e-2 })));
        h * growth
    }

    pub(super) fn rejected(&mut self, h: f64, err: f64, q: f64) -> f64 {
        let fac = if err.is_finite() {
            (Self::SAFETY * err.powf(-1.0 / q)).clamp(0.1, 0.9)
        } else {
            0.25
        };
        h * fac
    }
}
