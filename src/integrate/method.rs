//! Choice of integrator, as stored in presets.

use serde::{Deserialize, Serialize};

/// Integration method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Method {
    /// Rodas4 for smooth and state laws (stiff-safe), Dormand–Prince for event-driven
    /// set-valued laws.
    #[default]
    Auto,
    /// Explicit adaptive Dormand–Prince 5(4) with 4th-order dense output.
    Dopri5,
    /// L-stable adaptive Rosenbrock method Rodas4 (Hairer & Wanner), for stiff laws.
    Rodas4,
    /// L-stable adaptive Rosenbrock method Rodas5 (Di Marzo), order 5, for tight tolerances.
    Rodas5,
    /// Classical fixed-step Runge–Kutta 4 with the step `run.rk4_dt`.
    Rk4,
}

impl Method {
    /// Short human name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Dopri5 => "Dormand–Prince 5(4)",
            Method::Rodas4 => "Rodas4",
            Method::Rodas5 => "Rodas5",
            Method::Rk4 => "RK4 fixed step",
        }
    }

    /// All methods, for menus.
    pub const ALL: [Method; 5] = [
        Method::Auto,
        Method::Dopri5,
        Method::Rodas4,
        Method::Rodas5,
        Method::Rk4,
    ];
}
