//! Typed integration errors; each carries the simulation time where it happened.

/// Magnitude beyond which a state component counts as diverged.
pub const DIVERGED_ABOVE: f64 = 1e150;

/// Whether a state value is usable: not NaN and `|v| ≤ 10¹⁵⁰` (so ±∞ fails too). Every
/// integrator and map checks states with this one test.
#[inline]
pub fn is_bounded(v: f64) -> bool {
    v.abs() <= DIVERGED_ABOVE
}

/// Why a simulation could not go on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SimError {
    /// A state component became NaN or infinite: the integration diverged.
    #[error("integration diverged at t = {t}: state `{name}` became {value:e}", t = time(*.t_s))]
    NonFinite {
        /// Simulation time [s].
        t_s: f64,
        /// Name of the offending state component.
        name: String,
        /// Its value (NaN or ±∞).
        value: f64,
    },
    /// A state component of a discrete map became NaN, infinite or beyond 1e150.
    #[error("map diverged at iteration {iteration}: state `{name}` became {value:e}")]
    MapDiverged {
        /// Iteration count `n` (the `t` column of a map's rows).
        iteration: u64,
        /// Name of the offending state component.
        name: String,
        /// Its value.
        value: f64,
    },
    /// The adaptive step size collapsed.
    #[error(
        "step size fell to {h} at t = {t} ({method}); the model is too stiff or \
         discontinuous here; try another integrator or a looser rtol",
        h = time(*.h_s),
        t = time(*.t_s)
    )]
    StepTooSmall {
        /// Simulation time [s].
        t_s: f64,
        /// Step size at failure [s].
        h_s: f64,
        /// Integrator name.
        method: &'static str,
    },
    /// Accepted steps keep collapsing: the run advances too little to ever finish.
    #[error(
        "at t = {t} the run has stalled: {steps} steps advanced it by only {advanced} \
         (a time scale the integrator cannot resolve: a very stiff or nearly singular law, or \
         a parameter at the edge of its range); try Rodas5, or move the parameter away from \
         that edge",
        t = time(*.t_s),
        advanced = time(*.advanced_s)
    )]
    Stalled {
        /// Simulation time [s].
        t_s: f64,
        /// Accepted steps in the window.
        steps: u64,
        /// Model time the window advanced [s].
        advanced_s: f64,
    },
    /// Switches pile up without time advancing (Zeno behaviour or inconsistent modes).
    #[error(
        "{count} stick/slip switches within {window} at t = {t}: the run cannot \
         advance (Zeno behaviour)",
        window = time(*.window_s),
        t = time(*.t_s)
    )]
    Zeno {
        /// Simulation time [s].
        t_s: f64,
        /// Number of switches counted.
        count: usize,
        /// Time window they fell into [s].
        window_s: f64,
    },
    /// A model rejected its state or parameters during the run.
    #[error("at t = {t}: {message}", t = time(*.t_s))]
    Model {
        /// Simulation time [s].
        t_s: f64,
        /// What went wrong, in words.
        message: String,
    },
}

impl SimError {
    /// Simulation time at which the error happened [s] (for a map: the iteration count, which
    /// is its time axis).
    pub fn time_s(&self) -> f64 {
        match self {
            SimError::MapDiverged { iteration, .. } => *iteration as f64,
            SimError::NonFinite { t_s, .. }
            | SimError::StepTooSmall { t_s, .. }
            | SimError::Stalled { t_s, .. }
            | SimError::Zeno { t_s, .. }
            | SimError::Model { t_s, .. } => *t_s,
        }
    }
}

/// A time for a message: engineering notation with an SI prefix and six significant digits
/// (`366.752 ns`, not `0.0000003667517757395661 s`), exponent form outside the prefixes.
fn time(t_s: f64) -> String {
    if t_s == 0.0 || (1e-24..1e15).contains(&t_s.abs()) {
        crate::util::eng::format_si_short(t_s, "s", 6)
    } else {
        format!("{t_s:e} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times in messages read like the rest of the app, never as hundreds of digits.
    #[test]
    fn times_are_written_for_the_reader() {
        let e = SimError::StepTooSmall {
            t_s: 3.667_517_757_395_661e-7,
            h_s: 6.08e-21,
            method: "Rodas4",
        };
        let text = e.to_string();
        assert!(text.contains("at t = 366.752 ns"), "{text}");
        assert!(text.contains("fell to 6.08 zs"), "{text}");
        let e = SimError::NonFinite {
            t_s: 1e-300,
            name: "v".into(),
            value: f64::NAN,
        };
        assert!(e.to_string().contains("at t = 1e-300 s:"), "{e}");
        let e = SimError::Model {
            t_s: 12.5,
            message: "x".into(),
        };
        assert_eq!(e.to_string(), "at t = 12.5 s: x");
    }
}
